package api_test

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
)

// The forge API through Gitea's own Go SDK, a real client: whatever it
// decodes strictly (field names, types, times) and the status codes it
// checks must be Gitea's. Users sign in with their wallet and make a
// personal access token, as a person setting up the SDK or tea would; git
// pushes with that token.

// sdkUser is someone signed in with SIWE who made a token for the SDK.
type sdkUser struct {
	login, token string
	client       *gitea.Client
	key          *ecdsa.PrivateKey // the wallet, for what no token may do
}

// wallet is u as the test harness's user, to sign with its wallet.
func (u sdkUser) wallet() *forgetest.User {
	return &forgetest.User{Address: crypto.PubkeyToAddress(u.key.PublicKey), Token: u.token, Key: u.key}
}

// signUpForSDK signs a new wallet in with SIWE, creates a write token with
// the session (POST /users/{username}/tokens) and builds a client with it.
func signUpForSDK(t *testing.T, n *forgetest.Node) sdkUser {
	t.Helper()
	return signUpForSDKWith(t, n, "write")
}

// signUpForSDKWith is signUpForSDK with the token's scopes.
func signUpForSDKWith(t *testing.T, n *forgetest.Node, scopes ...string) sdkUser {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	var nonce struct {
		Nonce string `json:"nonce"`
	}
	n.JSON("GET", "/api/v1/auth/nonce", nil, nil, http.StatusOK, &nonce)
	origin, _ := url.Parse(n.URL)
	msg := siwe{domain: origin.Host, statement: "Sign in to dForge.", uri: n.URL + "/", nonce: nonce.Nonce,
		address: crypto.PubkeyToAddress(key.PublicKey), chainID: testChainID, issuedAt: time.Now()}.String()
	res := post(t, n.URL+"/api/v1/auth/siwe", nil, "", map[string]string{"message": msg, "signature": sign(key, msg)})
	var session struct {
		CSRF string `json:"csrfToken"`
		User struct {
			Login string `json:"login"`
		} `json:"user"`
	}
	decodeBody(t, res, http.StatusOK, &session)
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == auth.CookieName {
			cookie = c
		}
	}
	if cookie == nil || session.CSRF == "" || session.User.Login == "" {
		t.Fatalf("sign-in: cookie %v, session %+v", cookie, session)
	}
	delegateAfterSignIn(t, n, key, cookie)
	res = post(t, n.URL+"/api/v1/users/"+session.User.Login+"/tokens", cookie, session.CSRF,
		map[string]any{"name": "gitea-sdk", "scopes": scopes})
	var tok struct {
		SHA1 string `json:"sha1"`
	}
	decodeBody(t, res, http.StatusCreated, &tok)
	client, err := gitea.NewClient(n.URL, gitea.SetToken(tok.SHA1))
	if err != nil {
		t.Fatalf("gitea.NewClient: %v", err)
	}
	return sdkUser{login: session.User.Login, token: tok.SHA1, client: client, key: key}
}

func post(t *testing.T, url string, cookie *http.Cookie, csrf string, body any) *http.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if cookie != nil {
		req.AddCookie(cookie)
		req.Header.Set(auth.CSRFHeader, csrf)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func decodeBody(t *testing.T, res *http.Response, want int, v any) {
	t.Helper()
	defer res.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %s", res.Request.Method, res.Request.URL.Path, res.StatusCode, want, buf.Bytes())
	}
	if err := json.Unmarshal(buf.Bytes(), v); err != nil {
		t.Fatalf("decode %s: %v", buf.Bytes(), err)
	}
}

// delegateAfterSignIn is sign-in's second signature, as the web app asks
// for it: the Delegate message the node offers, signed by the wallet and
// submitted to the chain.
func delegateAfterSignIn(t *testing.T, n *forgetest.Node, key *ecdsa.PrivateKey, cookie *http.Cookie) {
	t.Helper()
	req, _ := http.NewRequest("GET", n.URL+"/api/v1/user/delegation", nil)
	req.AddCookie(cookie)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var ask struct {
		Needed  bool           `json:"needed"`
		Message map[string]any `json:"message"`
	}
	decodeBody(t, res, http.StatusOK, &ask)
	if !ask.Needed {
		t.Fatalf("a new wallet's sign-in needs no delegation: %+v", ask)
	}
	env, err := tx.Sign(key, tx.KindDelegate, ask.Message, testChainID)
	check(t, "sign the delegation", err)
	var out struct{ Code uint32 }
	decodeBody(t, post(t, n.URL+"/api/v1/chain/txs", nil, "", env), http.StatusOK, &out)
	if out.Code != 0 {
		t.Fatalf("delegation refused: %+v", out)
	}
}

// check fails the test on a client error.
func check(t *testing.T, step string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
}

// TestGiteaSDK drives a node with code.gitea.io/sdk/gitea: create a
// repository, push with git, open an issue, comment, label, open a pull
// request, review it as someone else, merge it, star, tag, and list each.
func TestGiteaSDK(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "sdk-demo"

	// 0. The server says which Gitea API it speaks (NewClient checked it).
	v, _, err := c.ServerVersion()
	check(t, "ServerVersion", err)
	var raw map[string]string
	n.JSON("GET", "/api/v1/version", nil, nil, http.StatusOK, &raw)
	if v != "1.24.0+dforge.test" || raw["version"] != v || raw["dforge"] != "test" {
		t.Fatalf("server version %q, /version %v", v, raw)
	}
	if err := c.CheckServerVersionConstraint(">= 1.22"); err != nil {
		t.Fatal(err)
	}

	// 1. The repository, with a README.
	repo, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, Description: "Driven by the SDK", AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	if repo.Name != name || repo.FullName != owner+"/"+name || repo.Owner == nil || repo.Owner.UserName != owner || repo.Empty || repo.Private ||
		repo.DefaultBranch != "main" || repo.Permissions == nil || !repo.Permissions.Admin || repo.CloneURL != n.URL+"/"+owner+"/"+name+".git" ||
		repo.Created.IsZero() || repo.Description != "Driven by the SDK" {
		t.Fatalf("CreateRepo: %+v", repo)
	}
	got, _, err := c.GetRepo(owner, name)
	check(t, "GetRepo", err)
	if got.ID != repo.ID || got.FullName != repo.FullName {
		t.Fatalf("GetRepo: %+v", got)
	}
	mine, res, err := c.ListMyRepos(gitea.ListReposOptions{})
	if err != nil || len(mine) != 1 || mine[0].ID != repo.ID || res.Header.Get("X-Total-Count") != "1" {
		t.Fatalf("ListMyRepos: %v %+v", err, mine)
	}

	// 2. A branch pushed with git and the token.
	wt := n.Clone(n.Remote(&forgetest.User{Token: alice.token}, owner, name))
	n.Git(wt, "checkout", "-q", "-b", "feature")
	head := n.Commit(wt, "Add the app", map[string]string{"src/app.go": "package app\n\nfunc A() {}\n"})
	n.Git(wt, "push", "-q", "origin", "feature")
	branches, _, err := c.ListRepoBranches(owner, name, gitea.ListRepoBranchesOptions{})
	check(t, "ListRepoBranches", err)
	tips := map[string]string{}
	for _, b := range branches {
		tips[b.Name] = b.Commit.ID
		if b.Name == "main" && !b.Protected {
			t.Errorf("main is not protected: %+v", b)
		}
	}
	if len(branches) != 2 || tips["feature"] != head || tips["main"] == "" {
		t.Fatalf("ListRepoBranches: %v", tips)
	}
	file, _, err := c.GetFile(owner, name, "feature", "src/app.go")
	check(t, "GetFile", err)
	if string(file) != "package app\n\nfunc A() {}\n" {
		t.Fatalf("GetFile: %q", file)
	}
	readme, _, err := c.GetContents(owner, name, "main", "README.md")
	check(t, "GetContents", err)
	if readme.Type != "file" || readme.Encoding == nil || *readme.Encoding != "base64" || readme.Content == nil || readme.LastCommitSha == nil || *readme.LastCommitSha != tips["main"] {
		t.Fatalf("GetContents: %+v", readme)
	}
	if text, err := base64.StdEncoding.DecodeString(*readme.Content); err != nil || !strings.HasPrefix(string(text), "# "+name+"\n") {
		t.Fatalf("README content %q %v", text, err)
	}

	// Page -1 asks for everything: the SDK sends page=0 and limit=0.
	tree, _, err := c.GetTrees(owner, name, gitea.ListTreeOptions{Ref: "feature", Recursive: true, ListOptions: gitea.ListOptions{Page: -1}})
	check(t, "GetTrees", err)
	var paths []string
	for _, e := range tree.Entries {
		paths = append(paths, e.Path)
	}
	if strings.Join(paths, " ") != "README.md src src/app.go" || tree.Page != 1 || tree.TotalCount != 3 || tree.Truncated {
		t.Fatalf("GetTrees: %v, page %d of %d, truncated %v", paths, tree.Page, tree.TotalCount, tree.Truncated)
	}

	// 3. An issue with a comment, and a label.
	issue, _, err := c.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "It breaks", Body: "Steps: run it."})
	check(t, "CreateIssue", err)
	if issue.Index != 1 || issue.Title != "It breaks" || issue.Body != "Steps: run it." || issue.State != gitea.StateOpen ||
		issue.Poster == nil || issue.Poster.UserName != owner || issue.Repository == nil || issue.Repository.FullName != owner+"/"+name {
		t.Fatalf("CreateIssue: %+v", issue)
	}
	comment, _, err := bob.client.CreateIssueComment(owner, name, issue.Index, gitea.CreateIssueCommentOption{Body: "Me too."})
	check(t, "CreateIssueComment", err)
	if comment.Body != "Me too." || comment.Poster == nil || comment.Poster.UserName != bob.login || comment.Created.IsZero() {
		t.Fatalf("CreateIssueComment: %+v", comment)
	}
	issues, _, err := c.ListRepoIssues(owner, name, gitea.ListIssueOption{Type: gitea.IssueTypeIssue})
	check(t, "ListRepoIssues", err)
	if len(issues) != 1 || issues[0].Index != 1 || issues[0].Comments != 1 || issues[0].PullRequest != nil {
		t.Fatalf("ListRepoIssues: %+v", issues)
	}
	comments, _, err := c.ListIssueComments(owner, name, issue.Index, gitea.ListIssueCommentOptions{})
	check(t, "ListIssueComments", err)
	if len(comments) != 1 || comments[0].ID != comment.ID || comments[0].Body != "Me too." {
		t.Fatalf("ListIssueComments: %+v", comments)
	}
	label, _, err := c.CreateLabel(owner, name, gitea.CreateLabelOption{Name: "feature", Color: "#00aabb", Description: "New things"})
	check(t, "CreateLabel", err)
	if label.ID == 0 || label.Name != "feature" || label.Color != "00aabb" || label.Description != "New things" {
		t.Fatalf("CreateLabel: %+v", label)
	}

	// 4. A pull request from the branch, labelled.
	pr, _, err := c.CreatePullRequest(owner, name, gitea.CreatePullRequestOption{
		Head: "feature", Base: "main", Title: "Add the app", Body: "Fixes #1.", Labels: []int64{label.ID}})
	check(t, "CreatePullRequest", err)
	if pr.Index != 2 || pr.State != gitea.StateOpen || pr.HasMerged || !pr.Mergeable || pr.Head == nil || pr.Head.Ref != "feature" ||
		pr.Head.Sha != head || pr.Base == nil || pr.Base.Ref != "main" || pr.Base.Sha != tips["main"] || len(pr.Labels) != 1 || pr.Labels[0].ID != label.ID ||
		pr.Poster == nil || pr.Poster.UserName != owner {
		t.Fatalf("CreatePullRequest: %+v", pr)
	}
	prs, _, err := c.ListRepoPullRequests(owner, name, gitea.ListPullRequestsOptions{State: gitea.StateOpen})
	check(t, "ListRepoPullRequests", err)
	if len(prs) != 1 || prs[0].Index != pr.Index || prs[0].Head.Sha != head {
		t.Fatalf("ListRepoPullRequests: %+v", prs)
	}

	// 5. Bob approves, with an inline comment on line 3 of the new file.
	review, _, err := bob.client.CreatePullReview(owner, name, pr.Index, gitea.CreatePullReviewOptions{
		State: gitea.ReviewStateApproved, Body: "LGTM",
		Comments: []gitea.CreatePullReviewComment{{Path: "src/app.go", Body: "Nice A.", NewLineNum: 3}}})
	check(t, "CreatePullReview", err)
	if review.State != gitea.ReviewStateApproved || review.Body != "LGTM" || review.Reviewer == nil || review.Reviewer.UserName != bob.login ||
		review.CommitID != head || review.CodeCommentsCount != 1 || review.Submitted.IsZero() {
		t.Fatalf("CreatePullReview: %+v", review)
	}
	reviews, _, err := c.ListPullReviews(owner, name, pr.Index, gitea.ListPullReviewsOptions{})
	check(t, "ListPullReviews", err)
	if len(reviews) != 1 || reviews[0].ID != review.ID || reviews[0].State != gitea.ReviewStateApproved {
		t.Fatalf("ListPullReviews: %+v", reviews)
	}
	inline, _, err := c.ListPullReviewComments(owner, name, pr.Index, review.ID)
	check(t, "ListPullReviewComments", err)
	if len(inline) != 1 || inline[0].Path != "src/app.go" || inline[0].LineNum != 3 || inline[0].Body != "Nice A." || inline[0].ReviewID != review.ID {
		t.Fatalf("ListPullReviewComments: %+v", inline)
	}

	// 5b. A pending review: its author's alone until submitted.
	pending, _, err := bob.client.CreatePullReview(owner, name, pr.Index, gitea.CreatePullReviewOptions{
		State: gitea.ReviewStatePending, Body: "Thinking",
		Comments: []gitea.CreatePullReviewComment{{Path: "src/app.go", Body: "Maybe B?", NewLineNum: 3}}})
	check(t, "CreatePullReview pending", err)
	if pending.State != gitea.ReviewStatePending || pending.ID == review.ID {
		t.Fatalf("CreatePullReview pending: %+v", pending)
	}
	if reviews, _, err = c.ListPullReviews(owner, name, pr.Index, gitea.ListPullReviewsOptions{}); err != nil || len(reviews) != 1 {
		t.Fatalf("ListPullReviews with another's draft: %+v %v", reviews, err)
	}
	submitted, _, err := bob.client.SubmitPullReview(owner, name, pr.Index, pending.ID, gitea.SubmitPullReviewOptions{State: gitea.ReviewStateComment, Body: "One thought"})
	check(t, "SubmitPullReview", err)
	if submitted.State != gitea.ReviewStateComment || submitted.Body != "One thought" || submitted.CodeCommentsCount != 1 || submitted.ID == pending.ID {
		t.Fatalf("SubmitPullReview: %+v", submitted)
	}
	if reviews, _, err = c.ListPullReviews(owner, name, pr.Index, gitea.ListPullReviewsOptions{}); err != nil || len(reviews) != 2 {
		t.Fatalf("ListPullReviews after submit: %+v %v", reviews, err)
	}

	// 6. Bob may not merge; alice, the owner, merges with a merge commit.
	merge := gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}
	if ok, res, err := bob.client.MergePullRequest(owner, name, pr.Index, merge); ok || err != nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("bob's merge: %v %v", ok, err)
	}
	if merged, _, err := c.IsPullRequestMerged(owner, name, pr.Index); merged || err != nil {
		t.Fatalf("IsPullRequestMerged before the merge: %v %v", merged, err)
	}
	if ok, res, err := c.MergePullRequest(owner, name, pr.Index, merge); !ok || err != nil {
		t.Fatalf("MergePullRequest: %v %v (status %d)", ok, err, res.StatusCode)
	}
	if merged, _, err := c.IsPullRequestMerged(owner, name, pr.Index); !merged || err != nil {
		t.Fatalf("IsPullRequestMerged after the merge: %v %v", merged, err)
	}
	pr, _, err = c.GetPullRequest(owner, name, pr.Index)
	check(t, "GetPullRequest", err)
	if !pr.HasMerged || pr.Merged == nil || pr.MergedCommitID == nil || pr.State != gitea.StateClosed || pr.MergedBy == nil || pr.MergedBy.UserName != owner {
		t.Fatalf("GetPullRequest after the merge: %+v", pr)
	}
	commits, _, err := c.ListRepoCommits(owner, name, gitea.ListCommitOptions{SHA: "main"})
	check(t, "ListRepoCommits", err)
	if len(commits) != 3 || commits[0].CommitMeta == nil || commits[0].SHA != *pr.MergedCommitID || len(commits[0].Parents) != 2 ||
		commits[0].Parents[0].SHA != tips["main"] || commits[0].Parents[1].SHA != head ||
		!strings.HasPrefix(commits[0].RepoCommit.Message, "Merge pull request 'Add the app' (#2)") {
		t.Fatalf("ListRepoCommits: %d commits, first %+v", len(commits), commits[0])
	}
	// The SDK pages with the Link header.
	page, res, err := c.ListRepoCommits(owner, name, gitea.ListCommitOptions{SHA: "main", ListOptions: gitea.ListOptions{Page: 2, PageSize: 1}})
	if err != nil || len(page) != 1 || page[0].SHA != commits[1].SHA || res.FirstPage != 1 || res.PrevPage != 1 || res.NextPage != 3 || res.LastPage != 3 {
		t.Fatalf("ListRepoCommits page 2: %v %d commits, pages first %d prev %d next %d last %d", err, len(page), res.FirstPage, res.PrevPage, res.NextPage, res.LastPage)
	}

	// 7. Stars and tags.
	if _, err := bob.client.StarRepo(owner, name); err != nil {
		t.Fatalf("StarRepo: %v", err)
	}
	if starring, _, err := bob.client.IsRepoStarring(owner, name); !starring || err != nil {
		t.Fatalf("IsRepoStarring after StarRepo: %v %v", starring, err)
	}
	if starring, _, err := c.IsRepoStarring(owner, name); starring || err != nil {
		t.Fatalf("IsRepoStarring of alice, who did not star it: %v %v", starring, err)
	}
	if got, _, err := c.GetRepo(owner, name); err != nil || got.Stars != 1 {
		t.Fatalf("stars after StarRepo: %v %+v", err, got)
	}
	n.Git(wt, "fetch", "-q", "origin", "main")
	n.Git(wt, "tag", "-a", "v1.0", "-m", "First release", "FETCH_HEAD")
	n.Git(wt, "push", "-q", "origin", "v1.0")
	tags, _, err := c.ListRepoTags(owner, name, gitea.ListRepoTagsOptions{})
	check(t, "ListRepoTags", err)
	if len(tags) != 1 || tags[0].Name != "v1.0" || tags[0].Commit == nil || tags[0].Commit.SHA != *pr.MergedCommitID || !strings.HasPrefix(tags[0].Message, "First release") {
		t.Fatalf("ListRepoTags: %+v", tags)
	}

	// 8. A second pull request, merged with rebase-merge, its branch deleted.
	n.Git(wt, "checkout", "-q", "-b", "docs", "FETCH_HEAD")
	n.Commit(wt, "Document the app", map[string]string{"docs/app.md": "# App\n"})
	n.Git(wt, "push", "-q", "origin", "docs")
	docs, _, err := c.CreatePullRequest(owner, name, gitea.CreatePullRequestOption{Head: "docs", Base: "main", Title: "Docs"})
	check(t, "CreatePullRequest docs", err)
	rebaseMerge := gitea.MergePullRequestOption{Style: gitea.MergeStyleRebaseMerge, DeleteBranchAfterMerge: ptr(true)}
	if ok, res, err := c.MergePullRequest(owner, name, docs.Index, rebaseMerge); !ok || err != nil {
		t.Fatalf("MergePullRequest rebase-merge: %v %v (status %d)", ok, err, res.StatusCode)
	}
	commits, _, err = c.ListRepoCommits(owner, name, gitea.ListCommitOptions{SHA: "main", ListOptions: gitea.ListOptions{PageSize: 1}})
	check(t, "ListRepoCommits after rebase-merge", err)
	if len(commits) != 1 || len(commits[0].Parents) != 2 || commits[0].Parents[0].SHA != *pr.MergedCommitID ||
		!strings.HasPrefix(commits[0].RepoCommit.Message, "Merge pull request 'Docs' (#3)") {
		t.Fatalf("ListRepoCommits after rebase-merge: %d commits, first %+v", len(commits), commits[0])
	}
	rebased, _, err := c.GetSingleCommit(owner, name, commits[0].Parents[1].SHA)
	check(t, "GetSingleCommit", err)
	if rebased.RepoCommit == nil || !strings.HasPrefix(rebased.RepoCommit.Message, "Document the app") {
		t.Fatalf("the merge's second parent: %+v", rebased.RepoCommit)
	}
	if _, res, err := c.GetRepoBranch(owner, name, "docs"); err == nil || res == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetRepoBranch docs after the merge: %v", err)
	}
}

// TestGiteaSDKDefaults drives the calls whose options the SDK always sends
// whole: closing an issue or a pull request sends title "" (and, for a
// pull request, base, body and assignee ""), which leave them as they are;
// the repository's comments are listed together; the user search parses,
// with ids and dates from the chain.
func TestGiteaSDKDefaults(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "sdk-defaults"
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	wt := n.Clone(n.Remote(&forgetest.User{Token: alice.token}, owner, name))
	n.Git(wt, "checkout", "-q", "-b", "feature")
	n.Commit(wt, "Add the app", map[string]string{"app.go": "package app\n"})
	n.Git(wt, "push", "-q", "origin", "feature")

	// 1. An issue and a pull request, each with a comment.
	issue, _, err := c.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "It breaks", Body: "Steps."})
	check(t, "CreateIssue", err)
	pr, _, err := c.CreatePullRequest(owner, name, gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Add the app", Body: "The app."})
	check(t, "CreatePullRequest", err)
	onIssue, _, err := bob.client.CreateIssueComment(owner, name, issue.Index, gitea.CreateIssueCommentOption{Body: "Me too."})
	check(t, "CreateIssueComment on the issue", err)
	onPull, _, err := c.CreateIssueComment(owner, name, pr.Index, gitea.CreateIssueCommentOption{Body: "Ready."})
	check(t, "CreateIssueComment on the pull request", err)

	// 2. Closing them with the SDK's defaults keeps the titles.
	closed := gitea.StateClosed
	edited, _, err := c.EditIssue(owner, name, issue.Index, gitea.EditIssueOption{State: &closed})
	check(t, "EditIssue closing", err)
	if edited.State != gitea.StateClosed || edited.Title != "It breaks" || edited.Body != "Steps." {
		t.Fatalf("EditIssue: %+v", edited)
	}
	editedPR, _, err := c.EditPullRequest(owner, name, pr.Index, gitea.EditPullRequestOption{State: &closed})
	check(t, "EditPullRequest closing", err)
	if editedPR.State != gitea.StateClosed || editedPR.Title != "Add the app" || editedPR.Base == nil || editedPR.Base.Ref != "main" {
		t.Fatalf("EditPullRequest: %+v", editedPR)
	}
	reopened, _, err := c.EditIssue(owner, name, issue.Index, gitea.EditIssueOption{Title: "It breaks on start", State: ptr(gitea.StateOpen)})
	check(t, "EditIssue reopening with a title", err)
	if reopened.State != gitea.StateOpen || reopened.Title != "It breaks on start" {
		t.Fatalf("EditIssue reopening: %+v", reopened)
	}

	// 3. The repository's comments, issues' and pull requests' together.
	all, res, err := c.ListRepoIssueComments(owner, name, gitea.ListIssueCommentOptions{})
	check(t, "ListRepoIssueComments", err)
	if len(all) != 2 || all[0].ID != onIssue.ID || all[1].ID != onPull.ID || all[0].Poster == nil || all[0].Poster.UserName != bob.login ||
		all[0].PRURL != "" || all[1].PRURL == "" || res.Header.Get("X-Total-Count") != "2" {
		t.Fatalf("ListRepoIssueComments: %+v", all)
	}
	// since and before: both comments are older than a second from now.
	soon := all[1].Created.Add(2 * time.Second)
	later, _, err := c.ListRepoIssueComments(owner, name, gitea.ListIssueCommentOptions{Since: soon})
	check(t, "ListRepoIssueComments since", err)
	earlier, _, err := c.ListRepoIssueComments(owner, name, gitea.ListIssueCommentOptions{Before: soon})
	check(t, "ListRepoIssueComments before", err)
	if len(later) != 0 || len(earlier) != 2 {
		t.Fatalf("ListRepoIssueComments since %v: %d comments, before it: %d", soon, len(later), len(earlier))
	}
	one, _, err := c.GetIssueComment(owner, name, onPull.ID)
	check(t, "GetIssueComment", err)
	if one.ID != onPull.ID || one.Body != "Ready." || one.PRURL == "" {
		t.Fatalf("GetIssueComment: %+v", one)
	}

	// 4. The user search parses: ids and creation dates from the chain.
	users, _, err := c.SearchUsers(gitea.SearchUsersOption{KeyWord: bob.login})
	check(t, "SearchUsers", err)
	if len(users) != 1 || users[0].UserName != bob.login || users[0].ID == 0 || users[0].Created.IsZero() {
		t.Fatalf("SearchUsers: %+v", users)
	}
	me, _, err := bob.client.GetMyUserInfo()
	check(t, "GetMyUserInfo", err)
	other, _, err := c.GetUserInfo(bob.login)
	check(t, "GetUserInfo", err)
	if me.ID != users[0].ID || other.ID != users[0].ID || !other.Created.Equal(users[0].Created) {
		t.Fatalf("bob's id: search %d %v, /user %d, /users/{username} %d %v", users[0].ID, users[0].Created, me.ID, other.ID, other.Created)
	}
	var byID struct {
		OK   bool `json:"ok"`
		Data []struct {
			ID    int64  `json:"id"`
			Login string `json:"login"`
		} `json:"data"`
	}
	n.JSON("GET", "/api/v1/users/search?uid="+strconv.FormatInt(users[0].ID, 10), nil, nil, http.StatusOK, &byID)
	if !byID.OK || len(byID.Data) != 1 || byID.Data[0].Login != bob.login || byID.Data[0].ID != users[0].ID {
		t.Fatalf("search by uid: %+v", byID)
	}
}

func ptr[T any](v T) *T { return &v }

// TestGiteaSDKTokens manages tokens as the SDK does, with HTTP Basic (the
// SDK allows nothing else here): Gitea's scope names in, the same names
// back, and a token deleted by its name.
func TestGiteaSDKTokens(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser("all")
	c, err := gitea.NewClient(n.URL, gitea.SetBasicAuth(alice.Name(), alice.Token))
	check(t, "gitea.NewClient", err)

	tok, _, err := c.CreateAccessToken(gitea.CreateAccessTokenOption{Name: "tea",
		Scopes: []gitea.AccessTokenScope{"write:repository", "read:user"}})
	check(t, "CreateAccessToken", err)
	if len(tok.Token) != 40 || fmt.Sprint(tok.Scopes) != "[write:repository read:user]" {
		t.Fatalf("token %+v", tok)
	}
	if _, res, err := c.CreateAccessToken(gitea.CreateAccessTokenOption{Name: "bad", Scopes: []gitea.AccessTokenScope{"repo"}}); err == nil || res == nil || res.StatusCode != http.StatusBadRequest {
		t.Fatalf("a bad scope: %v %v", res, err)
	}
	list, _, err := c.ListAccessTokens(gitea.ListAccessTokensOptions{})
	check(t, "ListAccessTokens", err)
	if len(list) != 2 || list[1].Name != "tea" || fmt.Sprint(list[1].Scopes) != "[write:repository read:user]" {
		t.Fatalf("tokens %+v", list)
	}

	_, err = c.DeleteAccessToken("tea")
	check(t, "DeleteAccessToken by name", err)
	list, _, err = c.ListAccessTokens(gitea.ListAccessTokensOptions{})
	check(t, "ListAccessTokens", err)
	if len(list) != 1 || list[0].Name == "tea" {
		t.Fatalf("after deleting tea: %+v", list)
	}
	_, err = c.DeleteAccessToken(list[0].ID + 1000)
	if err == nil {
		t.Fatal("deleting a missing token by id worked")
	}
}
