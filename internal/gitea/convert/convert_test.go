package convert

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// An issue's global id packs its repository and number and unpacks to
// them, a private repository's too; what cannot be packed is 0.
func TestIssueIDRoundTrips(t *testing.T) {
	for _, c := range []struct{ repo, number uint64 }{{1, 1}, {7, 42}, {1<<28 - 1, 1<<24 - 1}, {chainforge.PrivateIDBase + 3, 9}} {
		id := IssueID(c.repo, c.number)
		if id <= 0 || id >= 1<<53 {
			t.Fatalf("IssueID(%d, %d) = %d, not a positive id JavaScript reads exactly", c.repo, c.number, id)
		}
		repo, number, ok := ParseIssueID(id)
		if !ok || repo != c.repo || number != c.number {
			t.Errorf("ParseIssueID(IssueID(%d, %d)) = %d, %d, %v", c.repo, c.number, repo, number, ok)
		}
	}
	if id := IssueID(1<<28, 1); id != 0 {
		t.Errorf("a repository past 2^28: %d, want 0", id)
	}
	if _, _, ok := ParseIssueID(0); ok {
		t.Error("id 0 parsed")
	}
}

// A repository's lists are [] rather than null, and its URLs are the
// site's; Gitea's times it does not show are the epoch.
func TestRepoFromTheRecordAndTheSite(t *testing.T) {
	owner := User("https://forge.example", 5, "alice", "0xAbC")
	j := Repo("https://forge.example", owner, index.Repo{ID: 3, Name: "app", ForkOf: 1, Stars: 2, Created: "2024-01-02T03:04:05Z"})
	if j.FullName != "alice/app" || j.HTMLURL != "https://forge.example/alice/app" || j.URL != "https://forge.example/api/v1/repos/alice/app" ||
		j.CloneURL != "https://forge.example/alice/app.git" || !j.Fork || j.StarsCount != 2 || !j.OnChain || j.ArchivedAt != Unshown {
		t.Fatalf("repository: %+v", j)
	}
	out, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"topics":[]`, `"protected_branches":[]`, `"owner":{"id":5,"login":"alice"`, `"username":"alice"`, `"last_login":"1970-01-01T00:00:00Z"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("%s not in %s", want, out)
		}
	}
}

// A push lists each commit's files by what happened to them; a branch's
// newest commit lists none (null, as Gitea's). The time is the author's.
func TestPayloadCommitFiles(t *testing.T) {
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.FixedZone("", 2*3600))
	c := gitstore.Commit{ID: "abc", Message: "m", Author: gitstore.Signature{Name: "A", Email: "a@x", When: when},
		Committer: gitstore.Signature{Name: "C", When: when.Add(time.Hour)},
		Files:     []gitstore.FileChange{{Path: "new", Status: "added"}, {Path: "old", Status: "deleted"}, {Path: "same", Status: "modified"}}}
	p := PayloadCommit("https://f/a/r", c, true)
	if p.URL != "https://f/a/r/commit/abc" || p.Timestamp != "2024-05-06T07:08:09+02:00" || p.Author.Name != "A" || p.Committer.Name != "C" ||
		len(p.Added) != 1 || p.Added[0] != "new" || len(p.Removed) != 1 || p.Removed[0] != "old" || len(p.Modified) != 1 {
		t.Fatalf("push commit: %+v", p)
	}
	if b := PayloadCommit("https://f/a/r", c, false); b.Added != nil || b.Removed != nil || b.Modified != nil {
		t.Fatalf("branch commit lists files: %+v", b)
	}
}

// A private repository's asset is no IPFS file: its uuid is its digest.
// An asset without its own time was made with its release.
func TestAttachmentOfAPrivateAsset(t *testing.T) {
	rel := index.Release{ID: 2, TagName: "v 1", CreatedNS: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()}
	a := Attachment("https://f/a/r", rel, index.Asset{ID: 9, Name: "x y.zip", SHA256: "beef"})
	if a.UUID != "beef" || a.CID != "" || a.CreatedAt != "2024-01-01T00:00:00Z" || a.DownloadURL != "https://f/a/r/releases/download/v%201/x%20y.zip" {
		t.Fatalf("attachment: %+v", a)
	}
	r := Release("https://f", "a/r", User("https://f", 1, "a", ""), index.Release{ID: 2, TagName: "v1", Assets: []index.Asset{{ID: 9, CID: "bafy"}}})
	if r.URL != "https://f/api/v1/repos/a/r/releases/2" || r.UploadURL != r.URL+"/assets" || len(r.Assets) != 1 || r.Assets[0].UUID != "bafy" {
		t.Fatalf("release: %+v", r)
	}
}
