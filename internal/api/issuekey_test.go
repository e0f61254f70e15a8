package api

import (
	"bytes"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/dforge/dforge/internal/api/itemjson"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
)

// sampleIssue has every field of index.Issue set, its lists and its
// milestone included.
func sampleIssue() index.Issue {
	label := index.Label{ID: 3, Name: "bug", Color: "ff0000", Description: "d", Exclusive: true, Signer: "s", Delegation: "d"}
	return index.Issue{
		Repo: 1, Number: 2, IsPull: true, Author: index.User{Address: "0x00000000000000000000000000000000000000aa", Username: "alice"},
		Title: "t", Body: "b", State: "open", StateReason: "r", Comments: 4, Labels: []index.Label{label, label},
		Assignees:   []index.User{{Address: "0x00000000000000000000000000000000000000bb", Username: "bob"}},
		MilestoneID: 5, Milestone: &index.Milestone{ID: 5, Repo: 1, Title: "m", Description: "md", State: "open", OpenIssues: 1, ClosedIssues: 2, Due: 9, Created: "c", Updated: "u", Closed: "x", Signer: "s", Delegation: "d"},
		PinOrder: 1, CreatedHeight: 10, Created: "c", UpdatedHeight: 11, Updated: "u", Closed: "x", Signer: "s", Delegation: "d",
	}
}

// TestIssueKeyHoldsEveryField changes each field of an issue in turn, down
// to the fields of its labels, assignees and milestone, and checks that
// the issue's key changes: an issue list kept by that key (IssuesJSON)
// then never shows a field as it was. A field added to index.Issue fails
// here until issueKey writes it.
func TestIssueKeyHoldsEveryField(t *testing.T) {
	l := &Links{req: httptest.NewRequest("GET", "/", nil), origin: "http://h", Api: "http://h/api/v1/repos/o/r", Html: "http://h/o/r"}
	repo := index.Repo{ID: 1, Name: "r", Owner: index.User{Username: "o"}}
	keyOf := func(is index.Issue, pr *index.Pull) []byte {
		var k itemjson.Key
		l.issueKey(&k, repo, is, pr)
		return bytes.Clone(k.Bytes())
	}
	base := keyOf(sampleIssue(), nil)
	if changed := changeEachField(t, "Issue", sampleIssue, func(is index.Issue) []byte { return keyOf(is, nil) }); changed < 40 {
		t.Fatalf("only %d changes tried", changed)
	}

	// Beside the issue: its pull request's merge state and its repository.
	pr := &index.Pull{}
	withPR := keyOf(sampleIssue(), pr)
	pr.Merged = true
	if bytes.Equal(withPR, base) || bytes.Equal(keyOf(sampleIssue(), pr), withPR) {
		t.Error("the merge state is not in the key")
	}
	repo.Name = "renamed"
	if bytes.Equal(keyOf(sampleIssue(), nil), base) {
		t.Error("the repository's name is not in the key")
	}
}

// TestCommentKeyHoldsEveryField does for a comment what
// TestIssueKeyHoldsEveryField does for an issue; the comment's issue and
// its rendered body are in the key too.
func TestCommentKeyHoldsEveryField(t *testing.T) {
	l := &Links{req: httptest.NewRequest("GET", "/", nil), origin: "http://h", Api: "http://h/api/v1/repos/o/r", Html: "http://h/o/r", RepoID: 1}
	is := index.Issue{Number: 2}
	keyOf := func(c index.Comment, html string) []byte {
		var k itemjson.Key
		l.commentKey(&k, is, c, html)
		return bytes.Clone(k.Bytes())
	}
	sample := func() index.Comment {
		return index.Comment{ID: 7, Repo: 1, Number: 2, Author: index.User{Address: "0x00000000000000000000000000000000000000aa", Username: "alice"},
			Body: "b", Height: 3, Created: "c", Updated: "u", IsPull: true, Signer: "s", Delegation: "d"}
	}
	if changed := changeEachField(t, "Comment", sample, func(c index.Comment) []byte { return keyOf(c, "<p>b</p>") }); changed < 12 {
		t.Fatalf("only %d changes tried", changed)
	}
	base := keyOf(sample(), "<p>b</p>")
	if bytes.Equal(keyOf(sample(), `<p>b <a href="/alice">@alice</a></p>`), base) {
		t.Error("the rendered body is not in the key")
	}
	is.IsPull = true
	if bytes.Equal(keyOf(sample(), "<p>b</p>"), base) {
		t.Error("the issue's kind is not in the key")
	}
}

// TestActivityKeyHoldsEveryField does for a feed's action what
// TestIssueKeyHoldsEveryField does for an issue; the feed's owner and the
// repository's key are in the key too.
func TestActivityKeyHoldsEveryField(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	keyOf := func(it index.Activity, repo string, user int64) []byte {
		var k itemjson.Key
		ActivityKey(r, &k, it, []byte(repo), user)
		return bytes.Clone(k.Bytes())
	}
	sample := func() index.Activity {
		return index.Activity{ID: 1, Type: "comment", Actor: index.User{Address: "0x00000000000000000000000000000000000000aa", Username: "alice"},
			Repo:   index.ActivityRepo{ID: 2, Owner: "o", Name: "r", FullName: "o/r", Private: true},
			Number: 3, Title: "t", IsPull: true, State: "approve", Ref: "refs/heads/main", CommentID: 4, Content: "c", Height: 5, Time: "t"}
	}
	if changed := changeEachField(t, "Activity", sample, func(it index.Activity) []byte { return keyOf(it, `{"id":2}`, 7) }); changed < 18 {
		t.Fatalf("only %d changes tried", changed)
	}
	base := keyOf(sample(), `{"id":2}`, 7)
	if bytes.Equal(keyOf(sample(), `{"id":2,"stars_count":1}`, 7), base) || bytes.Equal(keyOf(sample(), `{"id":2}`, 8), base) {
		t.Error("the repository's key or the feed's owner is not in the key")
	}
}

// TestRepoKeyHoldsEveryField does for a repository's JSON (RepoItem)
// what TestIssueKeyHoldsEveryField does for an issue; the viewer's
// permission and the git data on this node are in the key too.
func TestRepoKeyHoldsEveryField(t *testing.T) {
	a := &API{sshPort: 22}
	r := httptest.NewRequest("GET", "/", nil)
	keyOf := func(rec index.Repo, perm forge.Perm, g repoGit) []byte {
		var k itemjson.Key
		a.repoKey(r, &k, rec, perm, g)
		return bytes.Clone(k.Bytes())
	}
	sample := func() index.Repo {
		return index.Repo{ID: 1, Owner: index.User{Address: "0x00000000000000000000000000000000000000aa", Username: "alice"}, Name: "r",
			Description: "d", DefaultBranch: "main", ProtectedBranches: []string{"main", "dev"}, Private: true, ForkOf: 2, Stars: 3, Forks: 4,
			Watchers: 5, OpenIssues: 6, OpenPulls: 7, CreatedHeight: 8, Created: "c", UpdatedHeight: 9, Updated: "u",
			Topics: []string{"go", "git"}, Website: "w", PendingTransfer: true, Signer: "s", Delegation: "d"}
	}
	g := repoGit{has: true}
	if changed := changeEachField(t, "Repo", sample, func(rec index.Repo) []byte { return keyOf(rec, forge.PermRead, g) }); changed < 25 {
		t.Fatalf("only %d changes tried", changed)
	}
	base := keyOf(sample(), forge.PermRead, g)
	for what, other := range map[string][]byte{
		"the permission":         keyOf(sample(), forge.PermWrite, g),
		"the git data":           keyOf(sample(), forge.PermRead, repoGit{}),
		"the emptiness":          keyOf(sample(), forge.PermRead, repoGit{has: true, empty: true}),
		"the replication":        keyOf(sample(), forge.PermRead, repoGit{has: true, replication: &replicationJSON{State: "ready"}}),
		"the replication's done": keyOf(sample(), forge.PermRead, repoGit{has: true, replication: &replicationJSON{State: "ready", Done: 1}}),
	} {
		if bytes.Equal(other, base) {
			t.Errorf("%s is not in the key", what)
		}
	}
	a.sshPort = 2222
	if bytes.Equal(keyOf(sample(), forge.PermRead, g), base) {
		t.Error("the SSH URL is not in the key")
	}
}

// TestThreadKeyHoldsEveryField does for a notification thread what
// TestIssueKeyHoldsEveryField does for an issue; its repository's JSON is
// in the key too.
func TestThreadKeyHoldsEveryField(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	keyOf := func(n index.Notification, repo []byte) []byte {
		var k itemjson.Key
		threadKey(r, &k, n, repo)
		return bytes.Clone(k.Bytes())
	}
	sample := func() index.Notification {
		return index.Notification{ID: 1, Repo: 2, Number: 3, SubjectType: "Issue", Reason: "mention", Title: "t", Actor: "0xaa", CommentID: 4,
			Amount: 5, Unread: true, Pinned: true, Height: 6, UpdatedNS: 7, State: "open", Reward: &index.RewardNote{Kind: "review", Withheld: 8, Reason: "r"}}
	}
	if changed := changeEachField(t, "Notification", sample, func(n index.Notification) []byte { return keyOf(n, []byte(`{"id":2}`)) }); changed < 18 {
		t.Fatalf("only %d changes tried", changed)
	}
	base := keyOf(sample(), []byte(`{"id":2}`))
	if bytes.Equal(keyOf(sample(), []byte(`{"id":2,"stars_count":1}`)), base) || bytes.Equal(keyOf(sample(), nil), keyOf(sample(), []byte{})) {
		t.Error("the repository's JSON, or whether there is one, is not in the key")
	}
}

// changeEachField changes each field of sample() in turn, down to the
// fields of its structs, lists and pointers, and fails for every change
// after which key gives the same bytes as for sample(). It returns the
// number of changes tried.
func changeEachField[T any](t *testing.T, name string, sample func() T, key func(T) []byte) int {
	t.Helper()
	base := key(sample())
	if !bytes.Equal(base, key(sample())) {
		t.Fatalf("the same %s writes two keys", name)
	}
	changed := 0
	var visit func(path string, at func(*T) reflect.Value)
	visit = func(path string, at func(*T) reflect.Value) {
		probe := sample()
		v := at(&probe)
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				if !v.Type().Field(i).IsExported() {
					continue // not in the JSON (an action's place in its list's order)
				}
				visit(path+"."+v.Type().Field(i).Name, func(x *T) reflect.Value { return at(x).Field(i) })
			}
			return
		case reflect.Pointer:
			visit(path, func(x *T) reflect.Value { return at(x).Elem() })
			v.SetZero()
		case reflect.Slice:
			for i := range v.Len() {
				visit(path+"[i]", func(x *T) reflect.Value { return at(x).Index(i) })
			}
			v.Set(v.Slice(0, v.Len()-1))
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Uint64:
			v.SetUint(v.Uint() + 1)
		default:
			t.Fatalf("%s: no change written for %s", path, v.Kind())
		}
		if bytes.Equal(key(probe), base) {
			t.Errorf("%s changed and the key did not", path)
		}
		changed++
	}
	visit(name, func(x *T) reflect.Value { return reflect.ValueOf(x).Elem() })
	return changed
}
