package forge_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// world applies actions as the app does: each on an overlay flushed only
// when it succeeds, one block height per action.
type world struct {
	t       *testing.T
	st      *state.Store
	height  uint64
	private bool
	events  [][]byte
}

func newWorld(t *testing.T) *world { return &world{t: t, st: state.OpenMemory()} }

var (
	owner    = common.HexToAddress("0x1000000000000000000000000000000000000001")
	maint    = common.HexToAddress("0x2000000000000000000000000000000000000002")
	writer   = common.HexToAddress("0x3000000000000000000000000000000000000003")
	reader   = common.HexToAddress("0x4000000000000000000000000000000000000004")
	stranger = common.HexToAddress("0x5000000000000000000000000000000000000005")
)

func (w *world) do(actor common.Address, action string, payload any) (forge.Change, error) {
	w.t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		w.t.Fatal(err)
	}
	w.height++
	o := state.NewOverlay(w.st)
	ev, err := forge.Apply(o, forge.Env{Height: w.height, Private: w.private}, actor, action, string(raw))
	if err != nil {
		var te *tx.Error
		if !errors.As(err, &te) || te.Message == "" || tx.CodeName(te.Code) == "" {
			w.t.Fatalf("%s: error %v is not a stable rejection", action, err)
		}
		return forge.Change{}, err
	}
	if err := o.Flush(w.st); err != nil {
		w.t.Fatal(err)
	}
	data, _ := json.Marshal(ev)
	w.events = append(w.events, data)
	c, err := forge.ParseEvent(ev)
	if err != nil {
		w.t.Fatalf("%s: parse own event: %v", action, err)
	}
	return c, nil
}

func (w *world) ok(actor common.Address, action string, payload any) forge.Change {
	w.t.Helper()
	c, err := w.do(actor, action, payload)
	if err != nil {
		w.t.Fatalf("%s by %s: %v", action, actor.Hex()[:6], err)
	}
	return c
}

func (w *world) fails(code uint32, actor common.Address, action string, payload any) {
	w.t.Helper()
	_, err := w.do(actor, action, payload)
	if !errors.Is(err, &tx.Error{Code: code}) {
		w.t.Fatalf("%s by %s: got %v, want %s", action, actor.Hex()[:6], err, tx.CodeName(code))
	}
}

type m = map[string]any

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
	sha3 = "3333333333333333333333333333333333333333"
)

// team creates owner's repository x with a maintainer, a writer and a
// reader as collaborators.
func (w *world) team() uint64 {
	w.t.Helper()
	id := w.ok(owner, "repo.create", m{"name": "x", "description": "the x", "private": w.private}).Repos[0].ID
	for _, c := range []struct {
		user common.Address
		perm string
	}{{maint, "maintain"}, {writer, "write"}, {reader, "read"}} {
		w.ok(owner, "repo.collaborator.set", m{"repo": id, "user": c.user, "permission": c.perm})
	}
	return id
}

func TestRepoCreateNamesAndIDs(t *testing.T) {
	w := newWorld(t)
	c := w.ok(owner, "repo.create", m{"name": "Hello.World_1-x", "description": "d"})
	r := c.Repos[0]
	if r.ID != 1 || r.Owner != owner || r.DefaultBranch != "main" || len(r.ProtectedBranches) != 1 || r.ProtectedBranches[0] != "main" || r.Private || r.CreatedHeight != 1 {
		t.Fatalf("repo = %+v", r)
	}
	if c.Action != "repo.create" || c.Actor != owner || c.Height != 1 {
		t.Fatalf("change = %+v", c)
	}
	if id := w.ok(stranger, "repo.create", m{"name": "hello.world_1-x", "defaultBranch": "trunk"}).Repos[0].ID; id != 2 {
		t.Fatalf("second repository id %d, want 2 (ids are chain-wide)", id)
	}
	w.fails(tx.CodeNameTaken, owner, "repo.create", m{"name": "HELLO.world_1-X"})
	for _, bad := range []string{"", strings.Repeat("a", 101), "a b", "ä", ".", "..", "-", "x.git", "X.GIT", "x.wiki", "a/b", "x.rss"} {
		w.fails(tx.CodeInvalidName, owner, "repo.create", m{"name": bad})
	}
	w.ok(owner, "repo.create", m{"name": strings.Repeat("a", 100)})
	w.fails(tx.CodeInvalidField, owner, "repo.create", m{"name": "p", "private": true})
	w.fails(tx.CodeInvalidField, owner, "repo.create", m{"name": "d", "description": strings.Repeat("d", forge.MaxDescription+1)})
	w.fails(tx.CodeInvalidField, owner, "repo.create", m{"name": "b", "defaultBranch": "bad..branch"})
	w.fails(tx.CodeInvalidField, owner, "repo.create", m{"name": "u", "unknown": 1})
	w.fails(tx.CodeUnknownAction, owner, "repo.explode", m{"repo": 1})
	if _, err := forge.Apply(state.NewOverlay(w.st), forge.Env{Height: 9}, owner, "repo.create", `{"name":"t"} {}`); !errors.Is(err, &tx.Error{Code: tx.CodeInvalidField}) {
		t.Fatalf("trailing data: %v", err)
	}
	if _, err := forge.Apply(state.NewOverlay(w.st), forge.Env{Height: 9}, common.Address{}, "repo.create", `{"name":"t"}`); !errors.Is(err, &tx.Error{Code: tx.CodeInvalidField}) {
		t.Fatalf("zero actor: %v", err)
	}
}

// TestPermissions checks every permission rule: each action refused one
// level below the level it needs, and allowed at it.
func TestPermissions(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	issue := w.ok(reader, "issue.create", m{"repo": id, "title": "from a reader"}).Issue.Number
	strangerIssue := w.ok(stranger, "issue.create", m{"repo": id, "title": "anyone may open issues on a public repository"}).Issue.Number
	label := w.ok(maint, "label.create", m{"repo": id, "name": "bug", "color": "#ff0000"}).Label.ID
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/feature", "old": forge.ZeroSHA, "new": sha1})
	pr := w.ok(writer, "pr.create", m{"repo": id, "title": "feature", "headBranch": "feature", "headSha": sha1, "baseSha": sha2}).Issue.Number

	cases := []struct {
		name    string
		denied  common.Address // one level too low
		allowed common.Address
		action  string
		payload m
	}{
		{"push needs write", reader, writer, "repo.push", m{"repo": id, "ref": "refs/heads/f2", "old": forge.ZeroSHA, "new": sha2}},
		{"branch pull request needs write", reader, writer, "pr.create", m{"repo": id, "title": "t", "headBranch": "f2", "headSha": sha2, "baseSha": sha1}},
		{"labelling an issue needs write", reader, writer, "issue.edit", m{"repo": id, "number": strangerIssue, "labels": []uint64{label}}},
		{"editing another's issue needs write", reader, writer, "issue.edit", m{"repo": id, "number": strangerIssue, "title": "retitled"}},
		{"labels at creation need write", reader, writer, "issue.create", m{"repo": id, "title": "t", "labels": []uint64{label}}},
		{"closing another's issue needs maintain", writer, maint, "issue.close", m{"repo": id, "number": issue}},
		{"reopening another's issue needs maintain", writer, maint, "issue.reopen", m{"repo": id, "number": issue}},
		{"labels need maintain", writer, maint, "label.create", m{"repo": id, "name": "feature", "color": "#00ff00"}},
		{"settings need maintain", writer, maint, "repo.update", m{"repo": id, "description": "new"}},
		{"merging needs maintain", writer, maint, "pr.merge", m{"repo": id, "number": pr, "style": "squash", "mergeSha": sha3}},
		{"protected branches are the owner's", maint, owner, "repo.update", m{"repo": id, "protectedBranches": []string{"main", "release"}}},
		{"renaming is the owner's", maint, owner, "repo.update", m{"repo": id, "name": "y"}},
		{"collaborators are the owner's", maint, owner, "repo.collaborator.set", m{"repo": id, "user": stranger, "permission": "read"}},
		{"transfer is the owner's", maint, owner, "repo.transfer", m{"repo": id, "newOwner": stranger}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.t = t
			w.fails(tx.CodeForbidden, c.denied, c.action, c.payload)
			w.ok(c.allowed, c.action, c.payload)
		})
	}
	w.t = t
	// The new owner now holds y; the old owner is a stranger to it, and
	// only the owner deletes.
	w.fails(tx.CodeForbidden, owner, "repo.delete", m{"repo": id})
	w.ok(stranger, "repo.delete", m{"repo": id})
	w.fails(tx.CodeNotFound, stranger, "issue.create", m{"repo": id, "title": "gone"})
}

func TestReadRights(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	n := w.ok(reader, "issue.create", m{"repo": id, "title": "t"}).Issue.Number
	// Read is enough to comment, star, watch and fork, and the author may
	// close and reopen their own issue.
	w.ok(stranger, "issue.comment", m{"repo": id, "number": n, "body": "me too"})
	w.ok(stranger, "repo.star", m{"repo": id})
	w.ok(stranger, "repo.watch", m{"repo": id})
	w.ok(stranger, "repo.fork", m{"repo": id})
	w.ok(reader, "issue.close", m{"repo": id, "number": n, "reason": "not_planned"})
	w.ok(reader, "issue.reopen", m{"repo": id, "number": n})
	w.ok(reader, "issue.edit", m{"repo": id, "number": n, "body": "the author edits"})
	w.fails(tx.CodeForbidden, reader, "issue.edit", m{"repo": id, "number": n, "assignees": []common.Address{writer}})
	// Assignees need write permission themselves.
	w.fails(tx.CodeInvalidField, writer, "issue.edit", m{"repo": id, "number": n, "assignees": []common.Address{reader}})
	c := w.ok(writer, "issue.edit", m{"repo": id, "number": n, "assignees": []common.Address{writer, owner}})
	if len(c.Issue.Assignees) != 2 || c.Issue.Body != "the author edits" {
		t.Fatalf("issue = %+v", c.Issue)
	}
}

func TestPrivateRepositoriesAreInvisible(t *testing.T) {
	w := newWorld(t)
	w.private = true
	id := w.team()
	if !forge.IsPrivateID(id) || id != forge.PrivateIDBase+1 {
		t.Fatalf("private repository id %d", id)
	}
	n := w.ok(reader, "issue.create", m{"repo": id, "title": "t"}).Issue.Number
	for action, payload := range map[string]m{
		"issue.create":  {"repo": id, "title": "t"},
		"issue.comment": {"repo": id, "number": n, "body": "b"},
		"repo.star":     {"repo": id},
		"repo.watch":    {"repo": id},
		"repo.fork":     {"repo": id},
		"repo.push":     {"repo": id, "ref": "refs/heads/x", "old": forge.ZeroSHA, "new": sha1},
		"repo.delete":   {"repo": id},
	} {
		w.fails(tx.CodeNotFound, stranger, action, payload)
	}
	w.ok(reader, "repo.star", m{"repo": id})
	fork := w.ok(reader, "repo.fork", m{"repo": id}).Repos[0]
	if !fork.Private || !forge.IsPrivateID(fork.ID) {
		t.Fatalf("fork of a private repository = %+v", fork)
	}
	// A removed collaborator loses sight of it.
	w.ok(owner, "repo.collaborator.set", m{"repo": id, "user": reader, "permission": "none"})
	w.fails(tx.CodeNotFound, reader, "issue.comment", m{"repo": id, "number": n, "body": "b"})
}

func TestProtectedBranches(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	push := func(ref, old, new string, forced bool) m {
		return m{"repo": id, "ref": ref, "old": old, "new": new, "forced": forced}
	}
	w.ok(writer, "repo.push", push("refs/heads/main", forge.ZeroSHA, sha1, false))
	c := w.ok(writer, "repo.push", push("refs/heads/main", sha1, sha2, false))
	if len(c.Refs) != 1 || c.Refs[0].ID != 2 || c.Refs[0].New != sha2 || c.Refs[0].Ref != "refs/heads/main" {
		t.Fatalf("ref update = %+v", c.Refs)
	}
	w.fails(tx.CodeProtectedBranch, writer, "repo.push", push("refs/heads/main", sha2, sha3, true))
	w.fails(tx.CodeProtectedBranch, owner, "repo.push", push("refs/heads/main", sha2, forge.ZeroSHA, false))
	// Other branches and tags take force-pushes and deletions.
	w.ok(writer, "repo.push", push("refs/heads/topic", forge.ZeroSHA, sha1, false))
	w.ok(writer, "repo.push", push("refs/heads/topic", sha1, sha3, true))
	w.ok(writer, "repo.push", push("refs/heads/topic", sha3, forge.ZeroSHA, false))
	w.ok(writer, "repo.push", push("refs/tags/v1", forge.ZeroSHA, sha1, false))
	// The owner may lift the protection.
	w.ok(owner, "repo.update", m{"repo": id, "protectedBranches": []string{}})
	w.ok(writer, "repo.push", push("refs/heads/main", sha2, sha3, true))
	for _, bad := range []m{
		push("heads/main", sha1, sha2, false),
		push("refs/heads/a..b", sha1, sha2, false),
		push("refs/heads/x", "xyz", sha2, false),
		push("refs/heads/x", sha1, strings.ToUpper(sha2[:39])+"A", false),
		push("refs/heads/x", sha1, sha1, false),
	} {
		w.fails(tx.CodeInvalidField, writer, "repo.push", bad)
	}
}

func TestNumberingIsPerRepositoryAndShared(t *testing.T) {
	w := newWorld(t)
	a := w.team()
	b := w.ok(owner, "repo.create", m{"name": "b"}).Repos[0].ID
	var got []uint64
	got = append(got, w.ok(reader, "issue.create", m{"repo": a, "title": "1"}).Issue.Number)
	got = append(got, w.ok(writer, "pr.create", m{"repo": a, "title": "2", "headBranch": "f", "headSha": sha1, "baseSha": sha2}).Issue.Number)
	got = append(got, w.ok(reader, "issue.create", m{"repo": b, "title": "b1"}).Issue.Number)
	c := w.ok(reader, "issue.create", m{"repo": a, "title": "3"})
	got = append(got, c.Issue.Number)
	if want := []uint64{1, 2, 1, 3}; !equal(got, want) {
		t.Fatalf("numbers %v, want %v", got, want)
	}
	if r := c.Repos[0]; r.OpenIssues != 2 || r.OpenPulls != 1 || r.LastNumber != 3 {
		t.Fatalf("repository counters %+v", r)
	}
	c1 := w.ok(reader, "issue.comment", m{"repo": a, "number": 1, "body": "x"})
	c2 := w.ok(reader, "issue.comment", m{"repo": b, "number": 1, "body": "y"})
	if c1.Comment.ID != 1 || c2.Comment.ID != 2 || c2.Issue.Comments != 1 {
		t.Fatalf("comment ids %d %d, count %d", c1.Comment.ID, c2.Comment.ID, c2.Issue.Comments)
	}
	w.fails(tx.CodeNotFound, reader, "issue.comment", m{"repo": a, "number": 9, "body": "x"})
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestIssueStates(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	n := w.ok(reader, "issue.create", m{"repo": id, "title": "t", "body": "b"}).Issue.Number
	c := w.ok(maint, "issue.close", m{"repo": id, "number": n})
	if c.Issue.State != forge.StateClosed || c.Issue.StateReason != forge.ReasonCompleted || c.Issue.ClosedHeight != w.height || c.Repos[0].OpenIssues != 0 {
		t.Fatalf("closed = %+v %+v", c.Issue, c.Repos)
	}
	w.fails(tx.CodeConflict, maint, "issue.close", m{"repo": id, "number": n})
	c = w.ok(reader, "issue.reopen", m{"repo": id, "number": n})
	if c.Issue.State != forge.StateOpen || c.Issue.StateReason != "" || c.Issue.ClosedHeight != 0 || c.Repos[0].OpenIssues != 1 {
		t.Fatalf("reopened = %+v", c.Issue)
	}
	w.fails(tx.CodeInvalidField, reader, "issue.close", m{"repo": id, "number": n, "reason": "wontfix"})
	w.fails(tx.CodeInvalidField, reader, "issue.reopen", m{"repo": id, "number": n, "reason": "completed"})
	if c := w.ok(reader, "issue.close", m{"repo": id, "number": n, "reason": "not_planned"}); c.Issue.StateReason != forge.ReasonNotPlanned {
		t.Fatalf("reason = %q", c.Issue.StateReason)
	}
	w.fails(tx.CodeNotFound, maint, "pr.close", m{"repo": id, "number": n})
}

func TestSizeLimits(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.ok(reader, "issue.create", m{"repo": id, "title": strings.Repeat("é", forge.MaxTitle), "body": strings.Repeat("b", forge.MaxBody)})
	for name, p := range map[string]m{
		"empty title":     {"repo": id, "title": ""},
		"blank title":     {"repo": id, "title": "   "},
		"long title":      {"repo": id, "title": strings.Repeat("t", forge.MaxTitle+1)},
		"long body":       {"repo": id, "title": "t", "body": strings.Repeat("b", forge.MaxBody+1)},
		"11 assignees":    {"repo": id, "title": "t", "assignees": make([]common.Address, 11)},
		"unknown payload": {"repo": id, "title": "t", "milestone": 3},
	} {
		t.Run(name, func(t *testing.T) {
			w.t = t
			w.fails(tx.CodeInvalidField, owner, "issue.create", p)
		})
	}
	w.t = t
	w.fails(tx.CodeInvalidField, reader, "issue.comment", m{"repo": id, "number": 1, "body": ""})
	w.fails(tx.CodeInvalidField, reader, "issue.comment", m{"repo": id, "number": 1, "body": strings.Repeat("c", forge.MaxBody+1)})
	w.fails(tx.CodeInvalidField, maint, "label.create", m{"repo": id, "name": strings.Repeat("l", forge.MaxLabelName+1), "color": "#000000"})
	w.fails(tx.CodeInvalidField, maint, "label.create", m{"repo": id, "name": "l", "color": "red"})
	pr := w.ok(writer, "pr.create", m{"repo": id, "title": "t", "headBranch": "f", "headSha": sha1, "baseSha": sha2}).Issue.Number
	many := make([]m, forge.MaxReviewComments+1)
	for i := range many {
		many[i] = m{"path": "a.go", "line": i + 1, "side": "new", "body": "nit"}
	}
	w.fails(tx.CodeInvalidField, maint, "pr.review", m{"repo": id, "number": pr, "state": "comment", "commitSha": sha1, "comments": many})
	w.ok(maint, "pr.review", m{"repo": id, "number": pr, "state": "comment", "commitSha": sha1, "comments": many[:forge.MaxReviewComments]})
}

func TestPullRequests(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	open := m{"repo": id, "title": "Add x", "body": "please", "headBranch": "feature", "headSha": sha1, "baseSha": sha2}
	c := w.ok(writer, "pr.create", open)
	n := c.Issue.Number
	if !c.Issue.IsPull || c.Pull.BaseBranch != "main" || c.Pull.HeadRepo != id || c.Repos[0].OpenPulls != 1 {
		t.Fatalf("pull request = %+v %+v", c.Issue, c.Pull)
	}
	w.fails(tx.CodeConflict, writer, "pr.create", open)
	w.fails(tx.CodeInvalidField, writer, "pr.create", m{"repo": id, "title": "t", "headBranch": "main", "headSha": sha1, "baseSha": sha2})

	// Reviews: the author only comments; request_changes needs a body;
	// inline comments get ids.
	review := func(state, body string) m {
		return m{"repo": id, "number": n, "state": state, "body": body, "commitSha": sha1,
			"comments": []m{{"path": "src/x.go", "line": 12, "side": "new", "body": "rename this"}}}
	}
	w.fails(tx.CodeForbidden, writer, "pr.review", review("approve", ""))
	w.ok(writer, "pr.review", review("comment", "explaining"))
	w.fails(tx.CodeInvalidField, reader, "pr.review", review("request_changes", ""))
	w.fails(tx.CodeInvalidField, reader, "pr.review", review("lgtm", ""))
	rv := w.ok(reader, "pr.review", review("request_changes", "see inline")).Review
	if rv.ID != 2 || rv.State != "request_changes" || len(rv.Comments) != 1 || rv.Comments[0].ID == 0 || rv.Comments[0].Line != 12 {
		t.Fatalf("review = %+v", rv)
	}
	bad := review("comment", "x")
	bad["comments"] = []m{{"path": "/etc/passwd", "line": 1, "side": "new", "body": "b"}}
	w.fails(tx.CodeInvalidField, reader, "pr.review", bad)
	bad["comments"] = []m{{"path": "a", "line": 0, "side": "new", "body": "b"}}
	w.fails(tx.CodeInvalidField, reader, "pr.review", bad)
	bad["comments"] = []m{{"path": "a", "line": 1, "side": "left", "body": "b"}}
	w.fails(tx.CodeInvalidField, reader, "pr.review", bad)

	// New commits on the head branch.
	if c := w.ok(writer, "pr.update", m{"repo": id, "number": n, "headSha": sha3}); c.Pull.HeadSHA != sha3 {
		t.Fatalf("updated = %+v", c.Pull)
	}
	w.fails(tx.CodeForbidden, stranger, "pr.update", m{"repo": id, "number": n, "headSha": sha1})
	w.ok(maint, "pr.review", review("approve", "")) // maintainers review too

	// Closed pull requests cannot be merged; reopened ones can.
	w.ok(maint, "pr.close", m{"repo": id, "number": n})
	w.fails(tx.CodeConflict, maint, "pr.merge", m{"repo": id, "number": n, "style": "merge", "mergeSha": sha2})
	w.fails(tx.CodeConflict, maint, "pr.review", review("approve", ""))
	w.ok(writer, "pr.reopen", m{"repo": id, "number": n}) // the author reopens
	w.fails(tx.CodeInvalidField, maint, "pr.merge", m{"repo": id, "number": n, "style": "octopus", "mergeSha": sha2})
	c = w.ok(owner, "pr.merge", m{"repo": id, "number": n, "style": "rebase", "mergeSha": sha2})
	if !c.Pull.Merged || c.Pull.MergedBy != owner || c.Pull.MergeStyle != "rebase" || c.Pull.MergedHeight != w.height ||
		c.Issue.State != forge.StateClosed || c.Issue.StateReason != forge.ReasonMerged || c.Repos[0].OpenPulls != 0 {
		t.Fatalf("merged = %+v %+v %+v", c.Pull, c.Issue, c.Repos)
	}
	w.fails(tx.CodeConflict, maint, "pr.merge", m{"repo": id, "number": n, "style": "merge", "mergeSha": sha2})
	w.fails(tx.CodeConflict, maint, "pr.reopen", m{"repo": id, "number": n})
	w.fails(tx.CodeConflict, maint, "pr.close", m{"repo": id, "number": n})
	w.fails(tx.CodeConflict, writer, "pr.update", m{"repo": id, "number": n, "headSha": sha1})
	w.ok(reader, "issue.comment", m{"repo": id, "number": n, "body": "thanks"})
	w.ok(reader, "pr.review", review("comment", "late remark"))
	// Merged, the same branches may be proposed again.
	w.ok(writer, "pr.create", open)
	w.fails(tx.CodeNotFound, maint, "pr.merge", m{"repo": id, "number": 99, "style": "merge", "mergeSha": sha2})
}

// TestMergeStyles: pr.merge takes every style Gitea's Do names besides
// manually-merged, and refuses any other.
func TestMergeStyles(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	for _, style := range []string{"rebase-merge", "fast-forward-only", "merge", "squash", "rebase"} {
		open := m{"repo": id, "title": "t", "headBranch": "f" + style, "headSha": sha1, "baseSha": sha2}
		n := w.ok(writer, "pr.create", open).Issue.Number
		for _, bad := range []string{"manually-merged", "fast-forward", "Rebase-Merge", ""} {
			w.fails(tx.CodeInvalidField, maint, "pr.merge", m{"repo": id, "number": n, "style": bad, "mergeSha": sha2})
		}
		if c := w.ok(maint, "pr.merge", m{"repo": id, "number": n, "style": style, "mergeSha": sha2}); !c.Pull.Merged || c.Pull.MergeStyle != style {
			t.Fatalf("merged %s = %+v", style, c.Pull)
		}
	}
}

func TestForksAndPullRequestsFromForks(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.fails(tx.CodeConflict, owner, "repo.fork", m{"repo": id})
	c := w.ok(stranger, "repo.fork", m{"repo": id})
	fork, parent := c.Repos[0], c.Repos[1]
	if fork.ForkOf != id || fork.Owner != stranger || fork.Name != "x" || parent.ID != id || parent.Forks != 1 {
		t.Fatalf("fork %+v of %+v", fork, parent)
	}
	w.fails(tx.CodeNameTaken, stranger, "repo.fork", m{"repo": id})
	other := w.ok(stranger, "repo.create", m{"name": "other"}).Repos[0].ID
	pr := m{"repo": id, "title": "from my fork", "headRepo": fork.ID, "headBranch": "main", "headSha": sha1, "baseSha": sha2}
	w.fails(tx.CodeForbidden, reader, "pr.create", pr) // the reader cannot write to the fork
	w.ok(stranger, "pr.create", pr)
	pr["headRepo"] = other
	w.fails(tx.CodeInvalidField, stranger, "pr.create", pr)
	// Deleting the fork gives the parent its count back.
	c = w.ok(stranger, "repo.delete", m{"repo": fork.ID})
	if !c.Repos[0].Deleted || c.Repos[1].Forks != 0 {
		t.Fatalf("delete = %+v", c.Repos)
	}
	w.ok(stranger, "repo.fork", m{"repo": id, "name": "x2"})
}

func TestStarsAndWatches(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.ok(stranger, "repo.star", m{"repo": id})
	c := w.ok(stranger, "repo.star", m{"repo": id})
	if c.Repos[0].Stars != 1 || c.Star == nil || !c.Star.On {
		t.Fatalf("starring twice = %+v %+v", c.Repos[0], c.Star)
	}
	w.ok(reader, "repo.star", m{"repo": id})
	if c := w.ok(stranger, "repo.unstar", m{"repo": id}); c.Repos[0].Stars != 1 || c.Star.On {
		t.Fatalf("unstar = %+v", c.Repos[0])
	}
	if c := w.ok(stranger, "repo.unstar", m{"repo": id}); c.Repos[0].Stars != 1 {
		t.Fatalf("unstarring twice = %+v", c.Repos[0])
	}
	if c := w.ok(stranger, "repo.watch", m{"repo": id}); c.Repos[0].Watchers != 1 || c.Watch == nil {
		t.Fatalf("watch = %+v", c)
	}
	if c := w.ok(stranger, "repo.unwatch", m{"repo": id}); c.Repos[0].Watchers != 0 {
		t.Fatalf("unwatch = %+v", c.Repos[0])
	}
	w.fails(tx.CodeNotFound, stranger, "repo.star", m{"repo": 42})
}

func TestLabels(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	bug := w.ok(maint, "label.create", m{"repo": id, "name": "bug", "color": "#FF0000", "description": "broken"}).Label
	if bug.Color != "#ff0000" || bug.ID != 1 {
		t.Fatalf("label = %+v", bug)
	}
	w.fails(tx.CodeNameTaken, maint, "label.create", m{"repo": id, "name": "BUG", "color": "#000000"})
	other := w.ok(owner, "repo.create", m{"name": "other"}).Repos[0].ID
	foreign := w.ok(owner, "label.create", m{"repo": other, "name": "bug", "color": "#000000"}).Label.ID
	w.fails(tx.CodeNotFound, writer, "issue.create", m{"repo": id, "title": "t", "labels": []uint64{foreign}})
	w.fails(tx.CodeInvalidField, writer, "issue.create", m{"repo": id, "title": "t", "labels": []uint64{bug.ID, bug.ID}})
	n := w.ok(writer, "issue.create", m{"repo": id, "title": "t", "labels": []uint64{bug.ID}}).Issue.Number
	if c := w.ok(maint, "label.delete", m{"repo": id, "label": bug.ID}); c.DeletedLabel == nil || c.DeletedLabel.ID != bug.ID {
		t.Fatalf("delete = %+v", c)
	}
	w.fails(tx.CodeNotFound, maint, "label.delete", m{"repo": id, "label": bug.ID})
	if c := w.ok(reader, "issue.comment", m{"repo": id, "number": n, "body": "x"}); len(c.Issue.Labels) != 0 {
		t.Fatalf("the deleted label is still on the issue: %v", c.Issue.Labels)
	}
	w.ok(maint, "label.create", m{"repo": id, "name": "bug", "color": "#000000"}) // the name is free again
}

func TestTransferRenameAndDelete(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.ok(stranger, "repo.create", m{"name": "x"})
	w.fails(tx.CodeNameTaken, owner, "repo.transfer", m{"repo": id, "newOwner": stranger})
	w.fails(tx.CodeNameTaken, stranger, "repo.update", m{"repo": w.ok(stranger, "repo.create", m{"name": "z"}).Repos[0].ID, "name": "X"})
	w.ok(owner, "repo.update", m{"repo": id, "name": "renamed"})
	w.ok(owner, "repo.create", m{"name": "x"}) // the old name is free
	w.fails(tx.CodeConflict, owner, "repo.transfer", m{"repo": id, "newOwner": owner})
	c := w.ok(owner, "repo.transfer", m{"repo": id, "newOwner": maint})
	if c.Repos[0].Owner != maint || c.Repos[0].Name != "renamed" {
		t.Fatalf("transferred = %+v", c.Repos[0])
	}
	// The former owner is a stranger now; the new owner has everything.
	w.fails(tx.CodeForbidden, owner, "repo.update", m{"repo": id, "description": "mine"})
	w.ok(maint, "repo.update", m{"repo": id, "protectedBranches": []string{"main", "dev"}})
	w.fails(tx.CodeInvalidField, maint, "repo.update", m{"repo": id, "protectedBranches": []string{"dev", "dev"}})
	w.ok(maint, "repo.delete", m{"repo": id})
	w.fails(tx.CodeNotFound, maint, "repo.delete", m{"repo": id})
	w.ok(maint, "repo.create", m{"name": "renamed"})
}

// The module is deterministic: the same actions give the same state root
// and the same events on any node.
func TestDeterministic(t *testing.T) {
	run := func() (*world, []byte) {
		w := newWorld(t)
		id := w.team()
		w.ok(writer, "pr.create", m{"repo": id, "title": "t", "headBranch": "f", "headSha": sha1, "baseSha": sha2})
		w.ok(reader, "pr.review", m{"repo": id, "number": 1, "state": "approve", "commitSha": sha1})
		w.ok(maint, "pr.merge", m{"repo": id, "number": 1, "style": "merge", "mergeSha": sha3})
		w.ok(stranger, "repo.star", m{"repo": id})
		return w, w.st.WorkingHash()
	}
	a, ha := run()
	b, hb := run()
	if !bytes.Equal(ha, hb) {
		t.Fatal("same actions, different state roots")
	}
	for i := range a.events {
		if !bytes.Equal(a.events[i], b.events[i]) {
			t.Fatalf("event %d differs:\n%s\n%s", i, a.events[i], b.events[i])
		}
	}
	if len(forge.Actions()) != 89 {
		t.Fatalf("actions: %v", forge.Actions())
	}
}

// FuzzApply feeds arbitrary payloads to every action over a small world.
// Whatever comes in, the answer is a change or a stable rejection, never a
// panic or an internal error.
func FuzzApply(f *testing.F) {
	for _, s := range []string{`{"repo":1,"title":"t"}`, `{"name":"x"}`, `{"repo":1,"number":1,"body":"b"}`, `null`, `[]`, `{"repo":-1}`,
		`{"repo":1,"ref":"refs/heads/main","old":"` + forge.ZeroSHA + `","new":"` + sha1 + `","forced":true}`,
		// Text the projection must never see: NUL, other C0, invalid UTF-8.
		`{"repo":1,"title":"a\u0000"}`, `{"name":"x","description":"\u001b[1m"}`, `{"repo":1,"number":1,"body":"\u0000"}`,
		`{"repo":1,"title":"t","body":"a\n\tb"}`, `{"repo":1,"title":"a` + "\xff" + `"}`, `{"repo":1,"name":"l\n","color":"#000000"}`,
		`{"repo":1,"number":1,"state":"comment","commitSha":"` + sha1 + `","comments":[{"path":"a","line":1,"side":"new","body":"\u0000"}]}`,
		// Events: the organizer's fields and an answer.
		`{"title":"t","description":"a\n\tb","startsAt":1,"endsAt":2,"timezone":"Etc/GMT+1","onlineUrl":"https://x.example","place":"p\u0000"}`,
		`{"event":1,"title":"t\r","endsAt":1,"timezone":"Europe/Ber lin","onlineUrl":"ftp://x"}`, `{"event":1,"status":"going"}`,
		// The same in the text fields of later actions: releases, milestones,
		// organizations and teams, topics, statuses, keys, review requests.
		`{"repo":1,"tagName":"v1\u0000","title":"t","note":"a\u0001"}`, `{"repo":1,"title":"m\n","description":"d\u0000"}`,
		`{"name":"o","fullName":"O\u0000","website":"https://a\tb","location":"l"}`, `{"org":1,"name":"t\u001f","description":"d"}`,
		`{"repo":1,"add":["go\u0000"]}`, `{"repo":1,"sha":"` + sha1 + `","state":"success","context":"ci\u0000","targetUrl":"u"}`,
		`{"title":"k\u0000","key":"ssh-ed25519 AAAA"}`, `{"repo":1,"number":1,"reviewers":["a"],"message":"\u0000"}`,
		// Marketplace listings: URL templates, events, multi-line descriptions.
		`{"name":"CI","description":"a\nb","events":["push"],"url_template":"https://ci.example/{owner}/{repo}?id={repo_id}","homepage":""}`,
		`{"name":"CI\u0000","events":["push"],"url_template":"https://ci.example/"}`,
		`{"name":"CI","events":["push"],"url_template":"javascript:alert(1)//{owner}"}`,
		`{"name":"CI","events":[],"url_template":"ftp://x/{nope}"}`, `{"listing":1,"repo":1}`,
		// The forum's: a topic, a reply with a quote, bad categories.
		`{"category":"general","title":"t","body":"b\n"}`, `{"category":"x","title":"t","body":"b"}`, `{"topic":1,"body":"b","quote":1}`,
		`{"topic":1,"title":"\u0000"}`, `{"post":1,"body":"\r\n"}`, `{"topic":1,"category":"announcements"}`} {
		for i := range forge.Actions() {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, payload string) {
		w := pendingWorld(t) // every action of the rules in force
		id := w.team()
		w.ok(reader, "issue.create", m{"repo": id, "title": "t"})
		if err := roles.Set(w.st, owner, roles.EventOrganizer, true); err != nil {
			t.Fatal(err)
		}
		w.ok(owner, "event.create", m{"title": "t", "startsAt": 1, "endsAt": 2, "timezone": "UTC", "place": "p"})
		topic := w.ok(reader, "forum.topic.create", m{"category": "help", "title": "t", "body": "b"}).ForumTopic.ID
		w.ok(owner, "forum.post.create", m{"topic": topic, "body": "b"})
		actions := forge.Actions()
		action := actions[int(which)%len(actions)]
		for _, actor := range []common.Address{owner, stranger} {
			c, err := forge.ApplyChange(state.NewOverlay(w.st), forge.Env{Height: 99}, actor, action, payload)
			var te *tx.Error
			if err != nil && (!errors.As(err, &te) || tx.CodeName(te.Code) == "" || te.Message == "") {
				t.Fatalf("%s %q: %v is not a stable rejection", action, payload, err)
			}
			checkFuzzedText(t, action, payload, c, err)
		}
	})
}

// checkFuzzedText holds an applied action to the text rules: the
// stateless CheckText refuses exactly what Apply refuses as invalid_text,
// and an accepted action's change carries no text the SQL projection
// could refuse.
func checkFuzzedText(t *testing.T, action, payload string, c forge.Change, err error) {
	t.Helper()
	pre := forge.CheckText(action, payload)
	if pre != nil && !errors.Is(err, &tx.Error{Code: tx.CodeInvalidText}) {
		t.Fatalf("%s %q: CheckText refused (%v) but Apply answered %v", action, payload, pre, err)
	}
	if err != nil {
		return
	}
	if !utf8.ValidString(payload) {
		t.Fatalf("%s %q was accepted though it is not valid UTF-8", action, payload)
	}
	data, merr := json.Marshal(c)
	if merr != nil {
		t.Fatal(merr)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if bad := badText(v); bad != "" {
		t.Fatalf("%s %q was accepted with the text %q", action, payload, bad)
	}
}

// badText returns the first string in v that the body rule (the loosest)
// refuses.
func badText(v any) string {
	switch v := v.(type) {
	case string:
		if tx.CheckBody("", v) != nil {
			return v
		}
	case []any:
		for _, e := range v {
			if bad := badText(e); bad != "" {
				return bad
			}
		}
	case map[string]any:
		for _, e := range v {
			if bad := badText(e); bad != "" {
				return bad
			}
		}
	}
	return ""
}
