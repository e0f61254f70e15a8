package forge_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Topics: admins replace, add and remove them; the list stays sorted and
// unique; Gitea's format and limits hold.
func TestRepoTopics(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	got := w.ok(maint, "repo.topics", m{"repo": id, "topics": []string{"go", "forge", "go"}}).Repos[0].Topics
	if strings.Join(got, ",") != "forge,go" {
		t.Fatalf("topics %v", got)
	}
	got = w.ok(owner, "repo.topics", m{"repo": id, "add": []string{"p2p"}, "remove": []string{"go"}}).Repos[0].Topics
	if strings.Join(got, ",") != "forge,p2p" {
		t.Fatalf("topics after add and remove: %v", got)
	}
	w.fails(tx.CodeForbidden, writer, "repo.topics", m{"repo": id, "add": []string{"mine"}})
	for _, bad := range []string{"Go", "-go", "", "a b", strings.Repeat("a", 36), "gö"} {
		w.fails(tx.CodeInvalidField, maint, "repo.topics", m{"repo": id, "add": []string{bad}})
	}
	w.fails(tx.CodeInvalidText, maint, "repo.topics", m{"repo": id, "add": []string{"go\n"}})
	many := make([]string, 26)
	for i := range many {
		many[i] = "t" + strings.Repeat("x", i)
	}
	w.fails(tx.CodeInvalidField, maint, "repo.topics", m{"repo": id, "topics": many})
	got = w.ok(maint, "repo.topics", m{"repo": id, "topics": many[:25]}).Repos[0].Topics
	if len(got) != 25 || !slices.IsSorted(got) {
		t.Fatalf("25 topics: %v", got)
	}
	w.fails(tx.CodeInvalidField, maint, "repo.topics", m{"repo": id, "add": []string{"one-more"}})
	if got := w.ok(maint, "repo.topics", m{"repo": id, "topics": []string{}}).Repos[0].Topics; got != nil {
		t.Fatalf("cleared topics: %v", got)
	}
	if !forge.ValidTopic("a.b-c9") || forge.ValidTopic(".a") {
		t.Fatal("ValidTopic")
	}
}

// label.edit changes the fields given, keeps the rest, and keeps names
// unique in any case.
func TestLabelEdit(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	bug := w.ok(maint, "label.create", m{"repo": id, "name": "bug", "color": "#ee0701", "description": "Broken"}).Label
	w.ok(maint, "label.create", m{"repo": id, "name": "docs", "color": "#0075ca"})
	l := w.ok(maint, "label.edit", m{"repo": id, "label": bug.ID, "name": "defect", "color": "#D73A4A", "exclusive": true}).Label
	if l.Name != "defect" || l.Color != "#d73a4a" || l.Description != "Broken" || !l.Exclusive || l.ID != bug.ID {
		t.Fatalf("edited label %+v", l)
	}
	w.fails(tx.CodeNameTaken, maint, "label.edit", m{"repo": id, "label": bug.ID, "name": "DOCS"})
	w.ok(maint, "label.create", m{"repo": id, "name": "bug", "color": "#ee0701"}) // the old name is free
	w.ok(maint, "label.edit", m{"repo": id, "label": bug.ID, "name": "Defect"})   // its own name, another case
	w.fails(tx.CodeInvalidField, maint, "label.edit", m{"repo": id, "label": bug.ID, "color": "red"})
	w.fails(tx.CodeInvalidText, maint, "label.edit", m{"repo": id, "label": bug.ID, "name": "a\nb"})
	w.fails(tx.CodeForbidden, writer, "label.edit", m{"repo": id, "label": bug.ID, "name": "x"})
	w.fails(tx.CodeNotFound, maint, "label.edit", m{"repo": id, "label": 999, "name": "x"})
}

// Exclusive labels: of those sharing a scope, an issue keeps the last
// listed; other labels are left alone.
func TestExclusiveLabels(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	label := func(name string, exclusive bool) uint64 {
		return w.ok(maint, "label.create", m{"repo": id, "name": name, "color": "#000000", "exclusive": exclusive}).Label.ID
	}
	bug, feature, area, other := label("kind/bug", true), label("kind/feature", true), label("area/ui", false), label("area/api", false)
	is := w.ok(writer, "issue.create", m{"repo": id, "title": "t", "labels": []uint64{bug, area, feature, other}}).Issue
	if !slices.Equal(is.Labels, []uint64{area, feature, other}) {
		t.Fatalf("created with %v", is.Labels)
	}
	is = w.ok(writer, "issue.edit", m{"repo": id, "number": is.Number, "labels": []uint64{feature, bug}}).Issue
	if !slices.Equal(is.Labels, []uint64{bug}) {
		t.Fatalf("edited to %v", is.Labels)
	}
	if forge.LabelScope("kind/bug") != "kind" || forge.LabelScope("bug") != "" || forge.LabelScope("/x") != "" {
		t.Fatal("LabelScope")
	}
}
