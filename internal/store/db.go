package store

import "database/sql"

// DB is the database handle for packages that keep their own SQL over the
// tables their migrations create (the chain index).
func (s *Store) DB() *sql.DB { return s.db }
