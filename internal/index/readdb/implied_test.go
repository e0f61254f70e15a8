package readdb

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dforge/dforge/internal/store"
)

// openStore opens a fresh SQLite store with every migration applied.
func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestImpliedTables derives, from the SQLite schema, the tables a write
// to a table changes besides it (its triggers' tables, the tables whose
// foreign keys cascade from it) and checks implied names each of them:
// a migration that adds a trigger or a cascade must say so there, or the
// read cache would keep answers those writes change.
func TestImpliedTables(t *testing.T) {
	ctx := context.Background()
	db := openStore(t).DB()
	tables := map[string]bool{}
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables[name] = true
	}
	rows.Close()
	for name := range tables {
		if keywords[name] {
			t.Errorf("table %s is named like a keyword sqlWords leaves out", name)
		}
	}
	want := map[string][]string{}
	add := func(from, to string) {
		if from != to && !slices.Contains(want[from], to) {
			want[from] = append(want[from], to)
		}
	}
	rows, err = db.QueryContext(ctx, `SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var on, text string
		if err := rows.Scan(&on, &text); err != nil {
			t.Fatal(err)
		}
		for _, w := range sqlWords(text) {
			if tables[w] {
				add(on, w)
			}
		}
	}
	rows.Close()
	rows, err = db.QueryContext(ctx, `SELECT m.name, f."table", f.on_update, f.on_delete
		FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var child, parent, onUpdate, onDelete string
		if err := rows.Scan(&child, &parent, &onUpdate, &onDelete); err != nil {
			t.Fatal(err)
		}
		if onUpdate != "NO ACTION" && onUpdate != "RESTRICT" || onDelete != "NO ACTION" && onDelete != "RESTRICT" {
			add(parent, child)
		}
	}
	rows.Close()
	if len(want) == 0 {
		t.Fatal("the schema has no trigger or cascade: the query reads nothing")
	}
	for from, to := range want {
		for _, table := range to {
			if !slices.Contains(implied[from], table) {
				t.Errorf("a write to %s changes %s, which implied does not name", from, table)
			}
		}
	}
	for from, to := range implied {
		for _, next := range to {
			for _, table := range implied[next] {
				if !slices.Contains(to, table) {
					t.Errorf("a write to %s changes %s through %s, which implied[%s] does not name", from, table, next, from)
				}
			}
		}
	}
}
