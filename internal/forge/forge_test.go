package forge_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
	sha3 = "3333333333333333333333333333333333333333"
)

type m = map[string]any

func (n *node) do(t *testing.T, actor common.Address, action string, payload any) forge.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := n.forge.DoJSON(ctx, actor, action, payload)
	if err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	return res
}

func (n *node) refused(t *testing.T, kind usererr.Kind, code string, actor common.Address, action string, payload any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := n.forge.DoJSON(ctx, actor, action, payload)
	ue, ok := usererr.As(err)
	if !ok || ue.Kind != kind || ue.Code != code || ue.Message == "" {
		t.Fatalf("%s: got %v (%+v), want kind %d code %s", action, err, ue, kind, code)
	}
}

// TestForgeOnChain drives a real single-validator chain through the
// service: each action is a Forge transaction the chain decides, and the
// SQL projection shows it as soon as Do returns.
func TestForgeOnChain(t *testing.T) {
	t.Parallel()
	n := singleNode(t)
	ctx := context.Background()
	alice, _ := newAddress()
	bob, _ := newAddress()
	carol, _ := newAddress()
	zero := common.Address{}

	// 1. A repository, found by owner and name.
	res := n.do(t, alice, "repo.create", chainforge.RepoCreate{Name: "hello", Description: "Hello, world"})
	id := res.Change.Repos[0].ID
	if id != 1 || res.Private || res.TxHash == "" || res.Height < 1 {
		t.Fatalf("repo.create = %+v", res)
	}
	repo, perm, err := n.forge.Repo(ctx, zero, alice.Hex(), "HELLO")
	if err != nil || repo.ID != id || perm != forge.PermRead || repo.Description != "Hello, world" || repo.DefaultBranch != "main" || repo.Private {
		t.Fatalf("Repo = %+v %v %v", repo, perm, err)
	}
	if _, perm, _ := n.forge.Repo(ctx, alice, alice.Hex(), "hello"); perm != forge.PermOwner {
		t.Fatalf("alice's permission on her repository: %v", perm)
	}
	n.refused(t, usererr.Conflict, "name_taken", alice, "repo.create", m{"name": "Hello"})
	n.refused(t, usererr.Unprocessable, "invalid_name", alice, "repo.create", m{"name": "bad name"})
	n.refused(t, usererr.NotFound, "not_found", alice, "issue.create", m{"repo": 99, "title": "t"})

	// 2. An issue with a comment and a label, closed as not planned.
	issue := n.do(t, bob, "issue.create", m{"repo": id, "title": "It crashes", "body": "Steps: ..."}).Change.Issue.Number
	n.do(t, alice, "issue.comment", m{"repo": id, "number": issue, "body": "Cannot reproduce."})
	bug := n.do(t, alice, "label.create", m{"repo": id, "name": "bug", "color": "#d73a4a"}).Change.Label.ID
	n.do(t, alice, "issue.edit", m{"repo": id, "number": issue, "labels": []uint64{bug}, "assignees": []common.Address{alice}})
	n.refused(t, usererr.Forbidden, "forbidden", carol, "issue.close", m{"repo": id, "number": issue})
	n.do(t, bob, "issue.close", m{"repo": id, "number": issue, "reason": "not_planned"})
	got, err := n.index.Issue(ctx, id, issue)
	if err != nil || got.State != "closed" || got.StateReason != "not_planned" || got.Comments != 1 || got.Closed == "" ||
		len(got.Labels) != 1 || got.Labels[0].Name != "bug" || len(got.Assignees) != 1 || got.Assignees[0].Address != alice.Hex() || got.IsPull {
		t.Fatalf("issue = %+v %v", got, err)
	}
	comments, total, err := n.index.Comments(ctx, id, issue, index.Page{Number: 1, Limit: 10})
	if err != nil || total != 1 || comments[0].Body != "Cannot reproduce." || comments[0].Author.Address != alice.Hex() {
		t.Fatalf("comments = %+v %d %v", comments, total, err)
	}

	// 3. Pushes: the default branch is protected against force-pushes.
	n.do(t, alice, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": chainforge.ZeroSHA, "new": sha1})
	n.refused(t, usererr.Forbidden, "protected_branch", alice, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha1, "new": sha2, "forced": true})
	n.refused(t, usererr.Forbidden, "forbidden", carol, "repo.push", m{"repo": id, "ref": "refs/heads/feature", "old": chainforge.ZeroSHA, "new": sha2})

	// 4. A collaborator's pull request, reviewed inline and merged by the owner.
	n.do(t, alice, "repo.collaborator.set", m{"repo": id, "user": carol, "permission": "write"})
	n.do(t, carol, "repo.push", m{"repo": id, "ref": "refs/heads/feature", "old": chainforge.ZeroSHA, "new": sha2})
	pr := n.do(t, carol, "pr.create", m{"repo": id, "title": "Add feature", "body": "Adds it.", "headBranch": "feature", "headSha": sha2, "baseSha": sha1}).Change.Issue.Number
	if pr != issue+1 {
		t.Fatalf("pull request #%d; issues and pull requests share the numbering", pr)
	}
	n.do(t, bob, "pr.review", m{"repo": id, "number": pr, "state": "request_changes", "body": "One thing.", "commitSha": sha2,
		"comments": []m{{"path": "main.go", "line": 3, "side": "new", "body": "Typo here."}}})
	n.do(t, alice, "pr.review", m{"repo": id, "number": pr, "state": "approve", "commitSha": sha2})
	n.refused(t, usererr.Forbidden, "forbidden", carol, "pr.merge", m{"repo": id, "number": pr, "style": "squash", "mergeSha": sha3})
	n.do(t, alice, "pr.merge", m{"repo": id, "number": pr, "style": "squash", "mergeSha": sha3})
	n.refused(t, usererr.Conflict, "conflict", alice, "pr.merge", m{"repo": id, "number": pr, "style": "squash", "mergeSha": sha3})
	pull, err := n.index.Pull(ctx, id, pr)
	if err != nil || !pull.Merged || pull.MergeStyle != "squash" || pull.MergeSHA != sha3 || pull.MergedBy == nil || pull.MergedBy.Address != alice.Hex() ||
		pull.State != "closed" || pull.StateReason != "merged" || pull.HeadBranch != "feature" || pull.BaseBranch != "main" || pull.MergedAt == "" {
		t.Fatalf("pull = %+v %v", pull, err)
	}
	reviews, err := n.index.Reviews(ctx, id, pr)
	if err != nil || len(reviews) != 2 || reviews[0].State != "request_changes" || len(reviews[0].Comments) != 1 ||
		reviews[0].Comments[0].Path != "main.go" || reviews[1].State != "approve" {
		t.Fatalf("reviews = %+v %v", reviews, err)
	}

	// 5. Stars, and the counters on the repository.
	n.do(t, bob, "repo.star", m{"repo": id})
	n.do(t, carol, "repo.watch", m{"repo": id})
	repo, _, _ = n.forge.Repo(ctx, zero, alice.Hex(), "hello")
	if repo.Stars != 1 || repo.Watchers != 1 || repo.OpenIssues != 0 || repo.OpenPulls != 0 {
		t.Fatalf("repository counters = %+v", repo)
	}
	pulls, total, err := n.index.Issues(ctx, id, index.IssueFilter{IsPull: ptr(true)}, index.Page{Number: 1, Limit: 10})
	if err != nil || total != 1 || pulls[0].Number != pr {
		t.Fatalf("pull list = %+v %d %v", pulls, total, err)
	}
	refs, total, err := n.index.RefUpdates(ctx, id, index.Page{Number: 1, Limit: 10})
	if err != nil || total != 2 || refs[0].Ref != "refs/heads/feature" || refs[0].Pusher.Address != carol.Hex() {
		t.Fatalf("ref updates = %+v %d %v", refs, total, err)
	}
	if p, _ := n.forge.Permission(ctx, repo, carol); p != forge.PermWrite {
		t.Fatalf("carol's permission %v", p)
	}

	// 6. A private repository never reaches the chain, and is invisible to
	// everyone without access.
	// CometBFT may still add an empty block after the last one, so "no
	// block" is checked as "no transaction": the count of chain txs.
	chainTxs := func() int64 {
		_, total, err := n.index.Txs(ctx, index.TxFilter{}, index.Page{Number: 1, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		return total
	}
	before := chainTxs()
	priv := n.do(t, alice, "repo.create", m{"name": "secret", "private": true})
	pid := priv.Change.Repos[0].ID
	if !priv.Private || !chainforge.IsPrivateID(pid) || priv.TxHash != "" {
		t.Fatalf("private repo.create = %+v", priv)
	}
	n.do(t, alice, "issue.create", m{"repo": pid, "title": "Private plans"})
	n.refused(t, usererr.NotFound, "not_found", bob, "issue.create", m{"repo": pid, "title": "peek"})
	if _, _, err := n.forge.Repo(ctx, bob, alice.Hex(), "secret"); !isNotFound(err) {
		t.Fatalf("bob sees the private repository: %v", err)
	}
	if _, _, err := n.forge.RepoByID(ctx, zero, pid); !isNotFound(err) {
		t.Fatalf("anyone sees the private repository: %v", err)
	}
	if r, p, err := n.forge.Repo(ctx, alice, alice.Hex(), "secret"); err != nil || !r.Private || p != forge.PermOwner {
		t.Fatalf("alice's private repository: %+v %v %v", r, p, err)
	}
	if after := chainTxs(); after != before {
		t.Fatalf("private actions went on chain: %d chain transactions before, %d after", before, after)
	}
	list, total, err := n.forge.Repos(ctx, index.RepoFilter{Viewer: bob}, index.Page{Number: 1, Limit: 10})
	if err != nil || total != 1 || list[0].ID != id {
		t.Fatalf("bob's repository list = %+v %d %v", list, total, err)
	}
	if list, total, _ := n.forge.Repos(ctx, index.RepoFilter{Viewer: alice, Sort: "name"}, index.Page{Number: 1, Limit: 10}); total != 2 || list[1].Name != "secret" {
		t.Fatalf("alice's repository list = %+v", list)
	}
}

func ptr[T any](v T) *T { return &v }

func isNotFound(err error) bool {
	ue, ok := usererr.As(err)
	return ok && ue.Kind == usererr.NotFound
}

// A Forge transaction signed by any key but an operator's is refused.
func TestForgeTxFromANonOperatorIsRefused(t *testing.T) {
	t.Parallel()
	n := singleNode(t)
	mallory, key := newAddress()
	env, err := tx.Sign(key, tx.KindForge, map[string]any{
		"from": mallory.Hex(), "actor": mallory.Hex(), "action": "repo.create", "payload": `{"name":"x"}`, "nonce": "0",
	}, testParams.ChainID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := n.chain.Submit(ctx, env); !errors.Is(err, &tx.Error{Code: tx.CodeNotOperator}) {
		t.Fatalf("submit from a non-operator: %v", err)
	}
}

// Many actions at once are pipelined: each is admitted in nonce order and
// all commit.
func TestConcurrentActions(t *testing.T) {
	t.Parallel()
	n := singleNode(t)
	alice, _ := newAddress()
	id := n.do(t, alice, "repo.create", m{"name": "busy"}).Change.Repos[0].ID
	const count = 20
	errs := make(chan error, count)
	for i := range count {
		go func() {
			_, err := n.forge.DoJSON(context.Background(), alice, "issue.create", m{"repo": id, "title": "issue " + strconv.Itoa(i)})
			errs <- err
		}()
	}
	for range count {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	issues, total, err := n.index.Issues(context.Background(), id, index.IssueFilter{}, index.Page{Number: 1, Limit: 100})
	if err != nil || total != count || issues[0].Number != count {
		t.Fatalf("issues: %d (newest #%d) %v", total, issues[0].Number, err)
	}
}

// Refusals in the middle of a flood leave no gap: each action another one
// beat is refused at once, by the relayer's own CheckTx, without using a
// nonce, and every action queued around it commits.
func TestConcurrentActionsWithRefusals(t *testing.T) {
	t.Parallel()
	n := singleNode(t)
	alice, _ := newAddress()
	id := n.do(t, alice, "repo.create", m{"name": "busy"}).Change.Repos[0].ID
	n.do(t, alice, "repo.create", m{"name": "taken"})
	const issues, clashes = 24, 12
	type outcome struct {
		clash bool
		err   error
	}
	out := make(chan outcome, issues+clashes)
	for i := range issues + clashes {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if i%3 == 2 {
				_, err := n.forge.DoJSON(ctx, alice, "repo.create", m{"name": "Taken"})
				out <- outcome{true, err}
				return
			}
			_, err := n.forge.DoJSON(ctx, alice, "issue.create", m{"repo": id, "title": "issue " + strconv.Itoa(i)})
			out <- outcome{false, err}
		}()
	}
	for range issues + clashes {
		o := <-out
		ue, _ := usererr.As(o.err)
		switch {
		case o.clash && (ue == nil || ue.Kind != usererr.Conflict || ue.Code != "name_taken"):
			t.Fatalf("a taken name: %v", o.err)
		case !o.clash && o.err != nil:
			t.Fatalf("an issue: %v", o.err)
		}
	}
	_, total, err := n.index.Issues(context.Background(), id, index.IssueFilter{}, index.Page{Number: 1, Limit: 1})
	if err != nil || total != issues {
		t.Fatalf("issues: %d, want %d (%v)", total, issues, err)
	}
	// Two repositories and the issues used nonces; the refusals did not.
	acct, err := n.chain.Account(n.forge.Operator())
	if err != nil || acct.Nonce != 2+issues {
		t.Fatalf("operator nonce %d, want %d (%v)", acct.Nonce, 2+issues, err)
	}
}

// An action whose caller gave up before its turn is never sent.
func TestAnActionGivenUpBeforeItsTurnIsNotSent(t *testing.T) {
	t.Parallel()
	n := singleNode(t)
	alice, _ := newAddress()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := n.forge.DoJSON(ctx, alice, "repo.create", m{"name": "late"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled action: %v", err)
	}
	n.do(t, alice, "repo.create", m{"name": "on-time"})
	acct, err := n.chain.Account(n.forge.Operator())
	if err != nil || acct.Nonce != 1 {
		t.Fatalf("operator nonce %d, want 1 (%v)", acct.Nonce, err)
	}
	if _, err := n.index.RepoByName(context.Background(), alice, "late"); err == nil {
		t.Fatal("the cancelled action's repository exists")
	}
}

func TestPayloadShapes(t *testing.T) {
	t.Parallel()
	n := singleNode(t)
	alice, _ := newAddress()
	// JSON text and structs are both accepted; a big body fits the
	// forge's transaction limit.
	id := n.do(t, alice, "repo.create", `{ "name": "shapes" }`).Change.Repos[0].ID
	body := strings.Repeat("b", chainforge.MaxBody)
	if res := n.do(t, alice, "issue.create", chainforge.IssueCreate{Repo: id, Title: "big", Body: body}); res.Change.Issue.Body != body {
		t.Fatal("body changed on the way")
	}
	n.refused(t, usererr.Unprocessable, "invalid_field", alice, "issue.create", chainforge.IssueCreate{Repo: id, Title: "t", Body: body + "b"})
	n.refused(t, usererr.Unprocessable, "unknown_action", alice, "issue.explode", m{"repo": id})
	n.refused(t, usererr.Unprocessable, "invalid_field", alice, "issue.create", m{"repo": id, "title": "t", "milestone": 1})
}

// Owners are found by their username, default or claimed, as URLs name
// them, even when they never held tokens.
func TestOwnersByName(t *testing.T) {
	t.Parallel()
	n := singleNode(t)
	alice, _ := newAddress()
	n.do(t, alice, "repo.create", m{"name": "named"})
	ctx := context.Background()
	name, err := n.index.Username(ctx, alice)
	if err != nil || !strings.HasPrefix(name, "user-") {
		t.Fatalf("username %q %v", name, err)
	}
	for _, owner := range []string{name, strings.ToUpper(name), alice.Hex(), strings.ToLower(alice.Hex())} {
		if r, _, err := n.forge.Repo(ctx, common.Address{}, owner, "named"); err != nil || r.Owner.Username != name {
			t.Errorf("Repo(%s/named) = %+v %v", owner, r, err)
		}
	}
	if _, _, err := n.forge.Repo(ctx, common.Address{}, "nobody", "named"); !isNotFound(err) {
		t.Fatalf("unknown owner: %v", err)
	}
}
