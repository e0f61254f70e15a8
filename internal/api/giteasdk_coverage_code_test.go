package api_test

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

// The SDK program's code areas: branches, contents, commits and tags;
// issues, comments and labels; pull requests and reviews.

func sdkContents(r *sdkRun, w *sdkWorld) {
	c, bc, owner, name := w.alice.client, w.bob.client, w.alice.login, w.repo
	var mainSHA string
	r.call("ListRepoBranches", func() error {
		branches, _, err := c.ListRepoBranches(owner, name, gitea.ListRepoBranchesOptions{})
		if err != nil {
			return err
		}
		if len(branches) == 1 && branches[0].Commit != nil {
			mainSHA = branches[0].Commit.ID
		}
		return want(len(branches) == 1 && branches[0].Name == "main" && mainSHA != "", "%+v", branches)
	})
	r.call("GetRepoBranch", func() error {
		b, _, err := c.GetRepoBranch(owner, name, "main")
		return errors.Join(err, want(b != nil && b.Name == "main" && b.Commit.ID == mainSHA, "%+v", b))
	})
	r.call("CreateBranch", func() error {
		b, _, err := c.CreateBranch(owner, name, gitea.CreateBranchOption{BranchName: "dev", OldBranchName: "main"})
		return errors.Join(err, want(b != nil && b.Name == "dev" && b.Commit.ID == mainSHA, "%+v", b))
	})
	r.call("DeleteRepoBranch", func() error {
		ok, _, err := c.DeleteRepoBranch(owner, name, "dev")
		if err != nil || !ok {
			return errors.Join(err, want(ok, "not deleted"))
		}
		_, res, err := c.GetRepoBranch(owner, name, "dev")
		return status(res, err, http.StatusNotFound)
	})

	// Branch protection. (Tag protection, Gitea 1.23's, is not served.)
	r.call("CreateBranchProtection", func() error {
		p, _, err := c.CreateBranchProtection(owner, name, gitea.CreateBranchProtectionOption{RuleName: "release/*", RequiredApprovals: 1})
		return errors.Join(err, want(p != nil && p.RuleName == "release/*" && p.RequiredApprovals == 1, "%+v", p))
	})
	r.call("ListBranchProtections", func() error {
		ps, _, err := c.ListBranchProtections(owner, name, gitea.ListBranchProtectionsOptions{})
		return errors.Join(err, want(len(ps) >= 1 && ps[len(ps)-1].RuleName == "release/*", "%+v", ps))
	})
	r.call("GetBranchProtection", func() error {
		p, _, err := c.GetBranchProtection(owner, name, "release/*")
		return errors.Join(err, want(p != nil && p.RequiredApprovals == 1, "%+v", p))
	})
	r.call("EditBranchProtection", func() error {
		two := int64(2)
		p, _, err := c.EditBranchProtection(owner, name, "release/*", gitea.EditBranchProtectionOption{RequiredApprovals: &two})
		return errors.Join(err, want(p != nil && p.RequiredApprovals == 2, "%+v", p))
	})
	r.call("DeleteBranchProtection", func() error {
		if _, err := c.DeleteBranchProtection(owner, name, "release/*"); err != nil {
			return err
		}
		_, res, err := c.GetBranchProtection(owner, name, "release/*")
		return status(res, err, http.StatusNotFound)
	})
	// Contents: read, then write through the API.
	r.call("GetFile", func() error {
		f, _, err := bc.GetFile(owner, name, "main", "README.md")
		return errors.Join(err, want(strings.HasPrefix(string(f), "# "+name), "%q", f))
	})
	r.call("GetFileReader", func() error {
		rc, _, err := bc.GetFileReader(owner, name, "main", "README.md")
		if err != nil {
			return err
		}
		defer rc.Close()
		f, err := io.ReadAll(rc)
		return errors.Join(err, want(strings.HasPrefix(string(f), "# "+name), "%q", f))
	})
	r.call("GetContents", func() error {
		f, _, err := bc.GetContents(owner, name, "main", "README.md")
		return errors.Join(err, want(f != nil && f.Type == "file" && f.Content != nil && f.LastCommitSha != nil && *f.LastCommitSha == mainSHA, "%+v", f))
	})
	var created *gitea.FileResponse
	r.call("CreateFile", func() (err error) {
		created, _, err = c.CreateFile(owner, name, "docs/guide.md", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{Message: "Add the guide", BranchName: "main"}, Content: b64("# Guide\n")})
		if err != nil {
			return err
		}
		return want(created.Content != nil && created.Content.Path == "docs/guide.md" && created.Commit != nil && created.Commit.SHA != mainSHA, "%+v", created)
	})
	r.call("ListContents", func() error {
		entries, _, err := bc.ListContents(owner, name, "main", "docs")
		return errors.Join(err, want(len(entries) == 1 && entries[0].Name == "guide.md" && entries[0].Type == "file", "%+v", entries))
	})
	r.call("UpdateFile", func() error {
		got, _, err := c.UpdateFile(owner, name, "docs/guide.md", gitea.UpdateFileOptions{
			FileOptions: gitea.FileOptions{Message: "Edit the guide"}, SHA: created.Content.SHA, Content: b64("# Guide\n\nRead me.\n")})
		if err != nil {
			return err
		}
		f, _, err := c.GetFile(owner, name, "main", "docs/guide.md")
		return errors.Join(err, want(got.Content != nil && string(f) == "# Guide\n\nRead me.\n", "%q", f))
	})
	r.call("UpdateFile stale sha", func() error {
		_, res, err := c.UpdateFile(owner, name, "docs/guide.md", gitea.UpdateFileOptions{
			FileOptions: gitea.FileOptions{Message: "Edit again"}, SHA: created.Content.SHA, Content: b64("lost\n")})
		// Gitea 1.22 answers a stale sha with 422 (handleCreateOrUpdateFileError:
		// ErrSHADoesNotMatch is "Invalid"), not 409.
		return status(res, err, http.StatusUnprocessableEntity)
	})
	r.call("CreateFile on a new branch", func() error {
		got, _, err := c.CreateFile(owner, name, "notes.txt", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{Message: "Notes", BranchName: "main", NewBranchName: "notes"}, Content: b64("notes\n")})
		if err != nil {
			return err
		}
		b, _, err := c.GetRepoBranch(owner, name, "notes")
		return errors.Join(err, want(b != nil && b.Commit.ID == got.Commit.SHA, "%+v", b))
	})
	r.call("DeleteFile", func() error {
		f, _, err := c.GetContents(owner, name, "notes", "notes.txt")
		if err != nil {
			return err
		}
		if _, err := c.DeleteFile(owner, name, "notes.txt", gitea.DeleteFileOptions{FileOptions: gitea.FileOptions{Message: "No notes", BranchName: "notes"}, SHA: f.SHA}); err != nil {
			return err
		}
		_, res, err := c.GetContents(owner, name, "notes", "notes.txt")
		return status(res, err, http.StatusNotFound)
	})

	// Commits, trees, blobs and refs.
	var head string
	r.call("ListRepoCommits", func() error {
		commits, _, err := bc.ListRepoCommits(owner, name, gitea.ListCommitOptions{SHA: "main"})
		if err != nil || len(commits) == 0 {
			return errors.Join(err, want(false, "no commits"))
		}
		head = commits[0].SHA
		return want(len(commits) >= 1 && commits[len(commits)-1].SHA == mainSHA, "%d commits", len(commits))
	})
	r.call("GetSingleCommit", func() error {
		cm, _, err := bc.GetSingleCommit(owner, name, mainSHA)
		return errors.Join(err, want(cm != nil && cm.SHA == mainSHA && cm.RepoCommit != nil, "%+v", cm))
	})
	r.call("GetCommitDiff", func() error {
		d, _, err := bc.GetCommitDiff(owner, name, mainSHA)
		return errors.Join(err, want(strings.Contains(string(d), "diff --git a/README.md b/README.md"), "%q", d))
	})
	r.call("GetCommitPatch", func() error {
		p, _, err := bc.GetCommitPatch(owner, name, mainSHA)
		return errors.Join(err, want(strings.HasPrefix(string(p), "From "+mainSHA), "%q", p))
	})
	r.call("CompareCommits", func() error {
		cmp, _, err := bc.CompareCommits(owner, name, mainSHA, head)
		return errors.Join(err, want(cmp != nil && cmp.TotalCommits >= 1 && len(cmp.Commits) == cmp.TotalCommits, "%+v", cmp))
	})
	var readmeSHA string
	r.call("GetTrees", func() error {
		tree, _, err := bc.GetTrees(owner, name, gitea.ListTreeOptions{Ref: mainSHA})
		if err != nil {
			return err
		}
		for _, e := range tree.Entries {
			if e.Path == "README.md" {
				readmeSHA = e.SHA
			}
		}
		return want(readmeSHA != "", "%+v", tree.Entries)
	})
	r.call("GetBlob", func() error {
		blob, _, err := bc.GetBlob(owner, name, readmeSHA)
		return errors.Join(err, want(blob != nil && blob.Encoding == "base64" && blob.SHA == readmeSHA && blob.Size > 0, "%+v", blob))
	})
	r.call("GetRepoRef", func() error {
		ref, _, err := bc.GetRepoRef(owner, name, "heads/main")
		return errors.Join(err, want(ref != nil && ref.Ref == "refs/heads/main" && ref.Object != nil && ref.Object.SHA == head, "%+v", ref))
	})
	r.call("GetRepoRefs", func() error {
		refs, _, err := bc.GetRepoRefs(owner, name, "heads")
		return errors.Join(err, want(len(refs) >= 2, "%d refs", len(refs)))
	})

	// Tags through the API.
	r.call("CreateTag", func() error {
		tag, _, err := c.CreateTag(owner, name, gitea.CreateTagOption{TagName: "v0.1", Message: "First", Target: "main"})
		return errors.Join(err, want(tag != nil && tag.Name == "v0.1" && tag.Commit != nil && tag.Commit.SHA == head, "%+v", tag))
	})
	var tagID string
	r.call("GetTag", func() error {
		tag, _, err := bc.GetTag(owner, name, "v0.1")
		if tag != nil {
			tagID = tag.ID
		}
		return errors.Join(err, want(tag != nil && tag.Name == "v0.1" && strings.HasPrefix(tag.Message, "First"), "%+v", tag))
	})
	r.call("GetAnnotatedTag", func() error {
		tag, _, err := bc.GetAnnotatedTag(owner, name, tagID)
		return errors.Join(err, want(tag != nil && tag.Tag == "v0.1" && tag.Object != nil && tag.Object.SHA == head, "%+v", tag))
	})
	r.call("ListRepoTags", func() error {
		tags, _, err := bc.ListRepoTags(owner, name, gitea.ListRepoTagsOptions{})
		return errors.Join(err, want(len(tags) == 1 && tags[0].Name == "v0.1", "%+v", tags))
	})
	r.call("DeleteTag", func() error {
		if _, err := c.DeleteTag(owner, name, "v0.1"); err != nil {
			return err
		}
		_, res, err := c.GetTag(owner, name, "v0.1")
		return status(res, err, http.StatusNotFound)
	})
}

func sdkIssues(r *sdkRun, w *sdkWorld) {
	c, bc, owner, name := w.alice.client, w.bob.client, w.alice.login, w.repo
	var issue *gitea.Issue
	r.call("CreateIssue", func() (err error) {
		issue, _, err = bc.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "It breaks", Body: "Steps."})
		return errors.Join(err, want(issue != nil && issue.Index >= 1 && issue.Poster.UserName == w.bob.login && issue.State == gitea.StateOpen, "%+v", issue))
	})
	r.call("GetIssue", func() error {
		got, _, err := c.GetIssue(owner, name, issue.Index)
		return errors.Join(err, want(got != nil && got.Title == "It breaks" && got.Body == "Steps.", "%+v", got))
	})
	r.call("EditIssue", func() error {
		got, _, err := c.EditIssue(owner, name, issue.Index, gitea.EditIssueOption{Title: "It breaks on start", Body: ptr("Run it.")})
		return errors.Join(err, want(got != nil && got.Title == "It breaks on start" && got.Body == "Run it.", "%+v", got))
	})
	r.call("ListRepoIssues", func() error {
		got, _, err := bc.ListRepoIssues(owner, name, gitea.ListIssueOption{Type: gitea.IssueTypeIssue})
		return errors.Join(err, want(len(got) == 1 && got[0].Index == issue.Index, "%d issues", len(got)))
	})
	r.call("ListIssues", func() error {
		got, _, err := bc.ListIssues(gitea.ListIssueOption{Type: gitea.IssueTypeIssue, CreatedBy: w.bob.login})
		return errors.Join(err, want(len(got) == 1 && got[0].Index == issue.Index, "%d issues", len(got)))
	})
	r.call("ListRepoIssues keyword", func() error {
		got, _, err := bc.ListRepoIssues(owner, name, gitea.ListIssueOption{KeyWord: "start"})
		return errors.Join(err, want(len(got) == 1 && got[0].Index == issue.Index, "%d issues", len(got)))
	})
	var comment *gitea.Comment
	r.call("CreateIssueComment", func() (err error) {
		comment, _, err = c.CreateIssueComment(owner, name, issue.Index, gitea.CreateIssueCommentOption{Body: "Which version?"})
		return errors.Join(err, want(comment != nil && comment.Body == "Which version?" && comment.Poster.UserName == owner, "%+v", comment))
	})
	r.call("GetIssueComment", func() error {
		got, _, err := bc.GetIssueComment(owner, name, comment.ID)
		return errors.Join(err, want(got != nil && got.ID == comment.ID && got.Body == "Which version?", "%+v", got))
	})
	r.call("EditIssueComment", func() error {
		got, _, err := c.EditIssueComment(owner, name, comment.ID, gitea.EditIssueCommentOption{Body: "Which version, please?"})
		return errors.Join(err, want(got != nil && got.Body == "Which version, please?", "%+v", got))
	})
	r.call("ListIssueComments", func() error {
		got, _, err := bc.ListIssueComments(owner, name, issue.Index, gitea.ListIssueCommentOptions{})
		return errors.Join(err, want(len(got) == 1 && got[0].ID == comment.ID, "%d comments", len(got)))
	})
	r.call("ListRepoIssueComments", func() error {
		got, _, err := bc.ListRepoIssueComments(owner, name, gitea.ListIssueCommentOptions{})
		return errors.Join(err, want(len(got) == 1 && got[0].ID == comment.ID, "%d comments", len(got)))
	})

	// Reactions.
	r.call("PostIssueReaction", func() error {
		re, _, err := c.PostIssueReaction(owner, name, issue.Index, "+1")
		return errors.Join(err, want(re != nil && re.Reaction == "+1" && re.User.UserName == owner, "%+v", re))
	})
	r.call("GetIssueReactions", func() error {
		rs, _, err := bc.ListIssueReactions(owner, name, issue.Index, gitea.ListIssueReactionsOptions{})
		return errors.Join(err, want(len(rs) == 1 && rs[0].Reaction == "+1", "%+v", rs))
	})
	r.call("DeleteIssueReaction", func() error {
		if _, err := c.DeleteIssueReaction(owner, name, issue.Index, "+1"); err != nil {
			return err
		}
		rs, _, err := bc.ListIssueReactions(owner, name, issue.Index, gitea.ListIssueReactionsOptions{})
		return errors.Join(err, want(len(rs) == 0, "%+v", rs))
	})
	r.call("PostIssueCommentReaction", func() error {
		re, _, err := bc.PostIssueCommentReaction(owner, name, comment.ID, "heart")
		return errors.Join(err, want(re != nil && re.Reaction == "heart", "%+v", re))
	})
	r.call("GetIssueCommentReactions", func() error {
		rs, _, err := c.GetIssueCommentReactions(owner, name, comment.ID)
		return errors.Join(err, want(len(rs) == 1 && rs[0].User.UserName == w.bob.login, "%+v", rs))
	})
	r.call("DeleteIssueCommentReaction", func() error {
		if _, err := bc.DeleteIssueCommentReaction(owner, name, comment.ID, "heart"); err != nil {
			return err
		}
		rs, _, err := c.GetIssueCommentReactions(owner, name, comment.ID)
		return errors.Join(err, want(len(rs) == 0, "%+v", rs))
	})

	// Subscriptions.
	r.call("IssueSubscribe", func() error { _, err := c.IssueSubscribe(owner, name, issue.Index); return err })
	r.call("CheckIssueSubscription", func() error {
		wi, _, err := c.CheckIssueSubscription(owner, name, issue.Index)
		return errors.Join(err, want(wi != nil && wi.Subscribed, "%+v", wi))
	})
	r.call("GetIssueSubscribers", func() error {
		users, _, err := bc.ListIssueSubscribers(owner, name, issue.Index, gitea.ListIssueSubscribersOptions{})
		return errors.Join(err, want(hasUser(users, owner), "%v", users))
	})
	r.call("IssueUnSubscribe", func() error {
		if _, err := c.IssueUnSubscribe(owner, name, issue.Index); err != nil {
			return err
		}
		wi, _, err := c.CheckIssueSubscription(owner, name, issue.Index)
		return errors.Join(err, want(wi != nil && !wi.Subscribed, "%+v", wi))
	})
	r.call("AddIssueSubscription", func() error {
		_, err := c.AddIssueSubscription(owner, name, issue.Index, owner)
		return err
	})
	r.call("DeleteIssueSubscription", func() error {
		_, err := c.DeleteIssueSubscription(owner, name, issue.Index, owner)
		return err
	})

	r.call("ListIssueTimeline", func() error {
		tl, _, err := bc.ListIssueTimeline(owner, name, issue.Index, gitea.ListIssueCommentOptions{})
		var comments int
		for _, e := range tl {
			if e.Type == "comment" {
				comments++
			}
		}
		return errors.Join(err, want(comments == 1, "%d comments in %d events", comments, len(tl)))
	})
	r.call("GetIssueTemplates", func() error {
		tmpls, _, err := bc.GetIssueTemplates(owner, name)
		return errors.Join(err, want(tmpls != nil && len(tmpls) == 0, "%+v", tmpls))
	})
	r.call("DeleteIssueComment", func() error {
		if _, err := c.DeleteIssueComment(owner, name, comment.ID); err != nil {
			return err
		}
		_, res, err := c.GetIssueComment(owner, name, comment.ID)
		return status(res, err, http.StatusNotFound)
	})
	r.call("EditIssue close", func() error {
		got, _, err := c.EditIssue(owner, name, issue.Index, gitea.EditIssueOption{State: ptr(gitea.StateClosed)})
		return errors.Join(err, want(got != nil && got.State == gitea.StateClosed && got.Closed != nil, "%+v", got))
	})
	r.call("ListRepoIssues closed", func() error {
		got, _, err := bc.ListRepoIssues(owner, name, gitea.ListIssueOption{State: gitea.StateClosed, Type: gitea.IssueTypeIssue})
		return errors.Join(err, want(len(got) == 1 && got[0].Index == issue.Index, "%d issues", len(got)))
	})
	r.call("EditIssue as a stranger", func() error {
		_, res, err := w.carol.client.EditIssue(owner, name, issue.Index, gitea.EditIssueOption{Title: "Mine now"})
		return status(res, err, http.StatusForbidden)
	})
	r.call("DeleteIssue", func() error {
		spare, _, err := c.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "Spam"})
		if err != nil {
			return err
		}
		if _, err := c.DeleteIssue(owner, name, spare.Index); err != nil {
			return err
		}
		_, res, err := c.GetIssue(owner, name, spare.Index)
		return status(res, err, http.StatusNotFound)
	})
}

func sdkLabels(r *sdkRun, w *sdkWorld) {
	c, bc, owner, name := w.alice.client, w.bob.client, w.alice.login, w.repo
	var bug, docs *gitea.Label
	var issue *gitea.Issue
	r.call("CreateLabel", func() (err error) {
		bug, _, err = c.CreateLabel(owner, name, gitea.CreateLabelOption{Name: "bug", Color: "#ee0701", Description: "Broken"})
		return errors.Join(err, want(bug != nil && bug.ID != 0 && bug.Color == "ee0701", "%+v", bug))
	})
	r.call("CreateLabel second", func() (err error) {
		docs, _, err = c.CreateLabel(owner, name, gitea.CreateLabelOption{Name: "docs", Color: "0075ca"})
		return errors.Join(err, want(docs != nil && docs.ID != bug.ID, "%+v", docs))
	})
	r.call("GetRepoLabel", func() error {
		l, _, err := bc.GetRepoLabel(owner, name, bug.ID)
		return errors.Join(err, want(l != nil && l.Name == "bug" && l.Description == "Broken", "%+v", l))
	})
	r.call("ListRepoLabels", func() error {
		ls, _, err := bc.ListRepoLabels(owner, name, gitea.ListLabelsOptions{})
		return errors.Join(err, want(len(ls) == 2, "%+v", ls))
	})
	r.call("EditLabel", func() error {
		l, _, err := c.EditLabel(owner, name, bug.ID, gitea.EditLabelOption{Name: ptr("defect"), Color: ptr("#d73a4a")})
		return errors.Join(err, want(l != nil && l.Name == "defect" && l.Color == "d73a4a" && l.Description == "Broken", "%+v", l))
	})
	r.call("EditLabel as a stranger", func() error {
		_, res, err := w.carol.client.EditLabel(owner, name, bug.ID, gitea.EditLabelOption{Name: ptr("mine")})
		return status(res, err, http.StatusForbidden)
	})
	r.call("CreateIssue with labels", func() (err error) {
		issue, _, err = c.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "Labelled", Labels: []int64{docs.ID}})
		return errors.Join(err, want(issue != nil && len(issue.Labels) == 1 && issue.Labels[0].ID == docs.ID, "%+v", issue))
	})
	r.call("AddIssueLabels", func() error {
		ls, _, err := c.AddIssueLabels(owner, name, issue.Index, gitea.IssueLabelsOption{Labels: []int64{bug.ID}})
		return errors.Join(err, want(len(ls) == 2, "%+v", ls))
	})
	r.call("GetIssueLabels", func() error {
		ls, _, err := bc.GetIssueLabels(owner, name, issue.Index, gitea.ListLabelsOptions{})
		return errors.Join(err, want(len(ls) == 2, "%+v", ls))
	})
	r.call("ListRepoIssues by label", func() error {
		got, _, err := bc.ListRepoIssues(owner, name, gitea.ListIssueOption{Labels: []string{"defect"}})
		return errors.Join(err, want(len(got) == 1 && got[0].Index == issue.Index, "%d issues", len(got)))
	})
	r.call("DeleteIssueLabel", func() error {
		if _, err := c.DeleteIssueLabel(owner, name, issue.Index, docs.ID); err != nil {
			return err
		}
		ls, _, err := c.GetIssueLabels(owner, name, issue.Index, gitea.ListLabelsOptions{})
		return errors.Join(err, want(len(ls) == 1 && ls[0].ID == bug.ID, "%+v", ls))
	})
	r.call("ReplaceIssueLabels", func() error {
		ls, _, err := c.ReplaceIssueLabels(owner, name, issue.Index, gitea.IssueLabelsOption{Labels: []int64{docs.ID}})
		return errors.Join(err, want(len(ls) == 1 && ls[0].ID == docs.ID, "%+v", ls))
	})
	r.call("ClearIssueLabels", func() error {
		if _, err := c.ClearIssueLabels(owner, name, issue.Index); err != nil {
			return err
		}
		ls, _, err := c.GetIssueLabels(owner, name, issue.Index, gitea.ListLabelsOptions{})
		return errors.Join(err, want(len(ls) == 0, "%+v", ls))
	})
	r.call("DeleteLabel", func() error {
		if _, err := c.DeleteLabel(owner, name, docs.ID); err != nil {
			return err
		}
		_, res, err := c.GetRepoLabel(owner, name, docs.ID)
		return status(res, err, http.StatusNotFound)
	})
}

func sdkPulls(r *sdkRun, w *sdkWorld) {
	c, bc, owner, name, n := w.alice.client, w.bob.client, w.alice.login, w.repo, w.n
	wt := n.Clone(n.Remote(&forgetest.User{Token: w.alice.token}, owner, name))
	n.Git(wt, "checkout", "-q", "-b", "feature")
	head := n.Commit(wt, "Add the app", map[string]string{"app.go": "package app\n\nfunc A() {}\n"})
	n.Git(wt, "push", "-q", "origin", "feature")

	var pr *gitea.PullRequest
	r.call("CreatePullRequest", func() (err error) {
		pr, _, err = c.CreatePullRequest(owner, name, gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Add the app", Body: "The app."})
		return errors.Join(err, want(pr != nil && pr.Head.Sha == head && pr.State == gitea.StateOpen && pr.Mergeable, "%+v", pr))
	})
	r.call("GetPullRequest", func() error {
		got, _, err := bc.GetPullRequest(owner, name, pr.Index)
		return errors.Join(err, want(got != nil && got.Title == "Add the app" && !got.HasMerged, "%+v", got))
	})
	r.call("ListRepoPullRequests", func() error {
		got, _, err := bc.ListRepoPullRequests(owner, name, gitea.ListPullRequestsOptions{State: gitea.StateOpen})
		return errors.Join(err, want(len(got) == 1 && got[0].Index == pr.Index, "%d pulls", len(got)))
	})
	r.call("EditPullRequest", func() error {
		got, _, err := c.EditPullRequest(owner, name, pr.Index, gitea.EditPullRequestOption{Title: "Add the app, A", Body: ptr("The app, with A.")})
		return errors.Join(err, want(got != nil && got.Title == "Add the app, A" && got.Body == "The app, with A.", "%+v", got))
	})
	r.call("GetPullRequestDiff", func() error {
		d, _, err := bc.GetPullRequestDiff(owner, name, pr.Index, gitea.PullRequestDiffOptions{})
		return errors.Join(err, want(strings.Contains(string(d), "+func A() {}"), "%q", d))
	})
	r.call("GetPullRequestPatch", func() error {
		p, _, err := bc.GetPullRequestPatch(owner, name, pr.Index)
		return errors.Join(err, want(strings.Contains(string(p), "Subject: [PATCH] Add the app"), "%q", p))
	})
	r.call("ListPullRequestCommits", func() error {
		cs, _, err := bc.ListPullRequestCommits(owner, name, pr.Index, gitea.ListPullRequestCommitsOptions{})
		return errors.Join(err, want(len(cs) == 1 && cs[0].SHA == head, "%+v", cs))
	})
	r.call("ListPullRequestFiles", func() error {
		fs, _, err := bc.ListPullRequestFiles(owner, name, pr.Index, gitea.ListPullRequestFilesOptions{})
		return errors.Join(err, want(len(fs) == 1 && fs[0].Filename == "app.go" && fs[0].Additions == 3, "%+v", fs))
	})
	r.call("IsPullRequestMerged before", func() error {
		merged, _, err := bc.IsPullRequestMerged(owner, name, pr.Index)
		return errors.Join(err, want(!merged, "merged"))
	})
	r.call("CreateReviewRequests", func() error {
		_, err := c.CreateReviewRequests(owner, name, pr.Index, gitea.PullReviewRequestOptions{Reviewers: []string{w.bob.login}})
		if err != nil {
			return err
		}
		asked, err := reviewRequested(c, owner, name, pr.Index, w.bob.login)
		return errors.Join(err, want(asked, "no review request for %s", w.bob.login))
	})
	r.call("DeleteReviewRequests", func() error {
		_, err := c.DeleteReviewRequests(owner, name, pr.Index, gitea.PullReviewRequestOptions{Reviewers: []string{w.bob.login}})
		if err != nil {
			return err
		}
		asked, err := reviewRequested(c, owner, name, pr.Index, w.bob.login)
		return errors.Join(err, want(!asked, "review still requested of %s", w.bob.login))
	})

	var pending, approval *gitea.PullReview
	r.call("CreatePullReview pending", func() (err error) {
		pending, _, err = bc.CreatePullReview(owner, name, pr.Index, gitea.CreatePullReviewOptions{State: gitea.ReviewStatePending, Body: "Hmm",
			Comments: []gitea.CreatePullReviewComment{{Path: "app.go", Body: "Name it better?", NewLineNum: 3}}})
		return errors.Join(err, want(pending != nil && pending.State == gitea.ReviewStatePending, "%+v", pending))
	})
	r.call("GetPullReview", func() error {
		got, _, err := bc.GetPullReview(owner, name, pr.Index, pending.ID)
		return errors.Join(err, want(got != nil && got.ID == pending.ID && got.Body == "Hmm", "%+v", got))
	})
	r.call("ListPullReviewComments", func() error {
		cs, _, err := bc.ListPullReviewComments(owner, name, pr.Index, pending.ID)
		return errors.Join(err, want(len(cs) == 1 && cs[0].Path == "app.go" && cs[0].LineNum == 3, "%+v", cs))
	})
	r.call("SubmitPullReview", func() (err error) {
		approval, _, err = bc.SubmitPullReview(owner, name, pr.Index, pending.ID, gitea.SubmitPullReviewOptions{State: gitea.ReviewStateApproved, Body: "Fine"})
		return errors.Join(err, want(approval != nil && approval.State == gitea.ReviewStateApproved && approval.Body == "Fine", "%+v", approval))
	})
	r.call("ListPullReviews", func() error {
		rs, _, err := c.ListPullReviews(owner, name, pr.Index, gitea.ListPullReviewsOptions{})
		return errors.Join(err, want(len(rs) == 1 && rs[0].State == gitea.ReviewStateApproved, "%+v", rs))
	})
	r.call("DismissPullReview", func() error {
		if _, err := c.DismissPullReview(owner, name, pr.Index, approval.ID, gitea.DismissPullReviewOptions{Message: "Changed since"}); err != nil {
			return err
		}
		got, _, err := c.GetPullReview(owner, name, pr.Index, approval.ID)
		return errors.Join(err, want(got != nil && got.Dismissed, "%+v", got))
	})
	r.call("UnDismissPullReview", func() error {
		if _, err := c.UnDismissPullReview(owner, name, pr.Index, approval.ID); err != nil {
			return err
		}
		got, _, err := c.GetPullReview(owner, name, pr.Index, approval.ID)
		return errors.Join(err, want(got != nil && !got.Dismissed, "%+v", got))
	})
	r.call("DeletePullReview", func() error {
		draft, _, err := bc.CreatePullReview(owner, name, pr.Index, gitea.CreatePullReviewOptions{State: gitea.ReviewStatePending, Body: "Later"})
		if err != nil {
			return err
		}
		if _, err := bc.DeletePullReview(owner, name, pr.Index, draft.ID); err != nil {
			return err
		}
		_, res, err := bc.GetPullReview(owner, name, pr.Index, draft.ID)
		return status(res, err, http.StatusNotFound)
	})
	r.call("MergePullRequest", func() error {
		ok, _, err := c.MergePullRequest(owner, name, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleSquash, Title: "Add the app (#2)"})
		return errors.Join(err, want(ok, "not merged"))
	})
	r.call("IsPullRequestMerged after", func() error {
		merged, _, err := bc.IsPullRequestMerged(owner, name, pr.Index)
		return errors.Join(err, want(merged, "not merged"))
	})
	r.call("ListRepoPullRequests closed", func() error {
		got, _, err := bc.ListRepoPullRequests(owner, name, gitea.ListPullRequestsOptions{State: gitea.StateClosed})
		return errors.Join(err, want(len(got) == 1 && got[0].HasMerged, "%d pulls", len(got)))
	})
}

// reviewRequested says whether the pull request lists a review requested
// of login: Gitea shows a request as a review in state REQUEST_REVIEW.
func reviewRequested(c *gitea.Client, owner, name string, index int64, login string) (bool, error) {
	rs, _, err := c.ListPullReviews(owner, name, index, gitea.ListPullReviewsOptions{})
	for _, r := range rs {
		if r.State == gitea.ReviewStateRequestReview && r.Reviewer != nil && r.Reviewer.UserName == login {
			return true, err
		}
	}
	return false, err
}
