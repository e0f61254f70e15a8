package forge

import "github.com/dforge/dforge/internal/chain/state"

// RepoRecord reads repository id's record as state holds it, a deleted
// one included (Deleted is set then); ok is false when there is none.
// The node's ABCI query reads it to prove it.
func RepoRecord(kv state.Reader, id uint64) (r Repo, ok bool, err error) {
	ok, err = getRecord(kv, repoKey(id), &r)
	return r, ok, err
}
