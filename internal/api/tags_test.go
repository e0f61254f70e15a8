package api_test

import (
	"net/http"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// A tag carries its commit's date, as Gitea's Tag does (commit.created),
// and an annotated tag its message and tagger with the tagging date.
func TestTagsCarryDates(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	create(t, n, alice, "dated", false)
	dir := n.Clone(n.Remote(alice, alice.Name(), "dated"))

	committed := []string{"GIT_COMMITTER_DATE=2024-03-01T10:00:00Z", "GIT_AUTHOR_DATE=2024-03-01T09:00:00Z"}
	n.Commit(dir, "Release one", map[string]string{"a.txt": "1\n"})
	n.GitAt(dir, committed, "commit", "--quiet", "--amend", "--no-edit", "--reset-author")
	first := n.Git(dir, "rev-parse", "HEAD")
	n.GitAt(dir, []string{"GIT_COMMITTER_DATE=2024-04-02T12:30:00Z"}, "tag", "-a", "v1.0", "-m", "First release")
	n.Commit(dir, "Release two", map[string]string{"a.txt": "2\n"})
	n.GitAt(dir, []string{"GIT_COMMITTER_DATE=2024-05-03T08:15:00Z"}, "commit", "--quiet", "--amend", "--no-edit")
	second := n.Git(dir, "rev-parse", "HEAD")
	n.Git(dir, "tag", "v2.0")
	n.Git(dir, "push", "--quiet", "origin", "main", "v1.0", "v2.0")

	var tags []struct {
		Name    string `json:"name"`
		Message string `json:"message"`
		Commit  struct {
			SHA     string `json:"sha"`
			Created string `json:"created"`
		} `json:"commit"`
		Tagger *struct {
			Name  string `json:"name"`
			Email string `json:"email"`
			Date  string `json:"date"`
		} `json:"tagger"`
	}
	n.JSON("GET", repoPath(alice, "dated")+"/tags", nil, nil, http.StatusOK, &tags)
	if len(tags) != 2 {
		t.Fatalf("tags %+v", tags)
	}
	annotated, light := tags[0], tags[1]
	if annotated.Name != "v1.0" || annotated.Commit.SHA+"\n" != first || annotated.Commit.Created != "2024-03-01T10:00:00Z" {
		t.Errorf("annotated tag's commit %+v", annotated)
	}
	if annotated.Message != "First release" || annotated.Tagger == nil ||
		annotated.Tagger.Date != "2024-04-02T12:30:00Z" || annotated.Tagger.Name != "Tester" || annotated.Tagger.Email != "tester@example.org" {
		t.Errorf("annotated tag %+v tagger %+v", annotated, annotated.Tagger)
	}
	if light.Name != "v2.0" || light.Commit.SHA+"\n" != second || light.Commit.Created != "2024-05-03T08:15:00Z" || light.Tagger != nil {
		t.Errorf("lightweight tag %+v", light)
	}
}
