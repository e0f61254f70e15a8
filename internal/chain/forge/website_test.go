package forge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// A repository's website: maintainers set it, the state machine holds it
// to an http(s) URL, and updates without it encode as they did before it.
func TestRepoWebsite(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	if got := w.ok(maint, "repo.update", m{"repo": id, "website": "https://forge.example/x"}).Repos[0].Website; got != "https://forge.example/x" {
		t.Fatalf("website %q", got)
	}
	if got := w.ok(maint, "repo.update", m{"repo": id, "description": "d"}).Repos[0].Website; got != "https://forge.example/x" {
		t.Fatalf("an update without a website changed it to %q", got)
	}
	w.fails(tx.CodeForbidden, writer, "repo.update", m{"repo": id, "website": "https://mine.example"})
	for _, bad := range []string{"ftp://forge.example", "forge.example", "https://", "https://a b", "https://x.example/" + strings.Repeat("a", 240)} {
		w.fails(tx.CodeInvalidField, maint, "repo.update", m{"repo": id, "website": bad})
	}
	w.fails(tx.CodeInvalidText, maint, "repo.update", m{"repo": id, "website": "https://x.example/\n"})
	if got := w.ok(maint, "repo.update", m{"repo": id, "website": ""}).Repos[0].Website; got != "" {
		t.Fatalf("cleared website %q", got)
	}
	b, err := json.Marshal(forge.RepoUpdate{Repo: 1})
	if err != nil || strings.Contains(string(b), "website") {
		t.Fatalf("an update without a website encodes as %s (%v)", b, err)
	}
	b, err = json.Marshal(forge.Repo{ID: 1})
	if err != nil || strings.Contains(string(b), "website") {
		t.Fatalf("a repository without a website encodes as %s (%v)", b, err)
	}
}
