package app_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
)

// actionRow is a row of a README's "## Actions" table: | `forum.topic.create` | ...
var actionRow = regexp.MustCompile("^\\| `([a-z]+(?:\\.[a-z]+)+)` \\|")

// TestEveryDocumentedActionHasAHandler: every action the chain modules'
// READMEs list in their "## Actions" tables has a handler in the forge's
// actions table, as the app links it (modules.go): a module whose import
// is forgotten fails here instead of silently refusing its actions.
func TestEveryDocumentedActionHasAHandler(t *testing.T) {
	readmes, err := filepath.Glob("../*/README.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := 0
	for _, path := range readmes {
		for _, name := range documentedActions(t, path) {
			documented++
			if _, ok := forge.PayloadOf(name); !ok {
				t.Errorf("%s documents the action %s, which has no handler: is its module imported in modules.go?", path, name)
			}
		}
	}
	if documented == 0 {
		t.Fatal("no README under internal/chain documents an action: the table format changed?")
	}
}

// documentedActions are the action names of path's "## Actions" section.
func documentedActions(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Actions"
			continue
		}
		if m := actionRow.FindStringSubmatch(line); in && m != nil {
			names = append(names, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}
