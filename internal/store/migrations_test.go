package store_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/store"
)

// Migrations are written once, in migrations/shared; a dialect's own file
// replaces a shared one only where the engines really differ. This keeps
// the two sets in step: the same names for both engines, no placeholder
// left over, and no per-dialect copy that could have been shared.
func TestMigrationsAreWrittenOnceAndInStep(t *testing.T) {
	names := map[store.Dialect][]string{}
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		dir, err := store.Migrations(d)
		if err != nil {
			t.Fatal(err)
		}
		files, err := fs.Glob(dir, "*.sql")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			raw, err := fs.ReadFile(dir, f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), "{{") {
				t.Errorf("%s migration %s keeps a placeholder: %q", d, f, raw)
			}
		}
		names[d] = files
	}
	if !slices.Equal(names[store.SQLite], names[store.Postgres]) {
		t.Errorf("the engines' migrations differ in names:\nsqlite   %v\npostgres %v", names[store.SQLite], names[store.Postgres])
	}

	read := func(sub, name string) (string, bool) {
		raw, err := os.ReadFile(filepath.Join("migrations", sub, name))
		return string(raw), err == nil
	}
	for _, sub := range []string{"sqlite", "postgres"} {
		own, err := os.ReadDir(filepath.Join("migrations", sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range own {
			text, _ := read(sub, e.Name())
			if shared, ok := read("shared", e.Name()); ok && shared == text {
				t.Errorf("migrations/%s/%s repeats the shared file: delete it", sub, e.Name())
			}
			other := map[string]string{"sqlite": "postgres", "postgres": "sqlite"}[sub]
			if twin, ok := read(other, e.Name()); ok && twin == text {
				t.Errorf("migrations/%s/%s is the same for both engines: move it to migrations/shared", sub, e.Name())
			}
		}
	}
}
