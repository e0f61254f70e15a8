package repo

import (
	"encoding/base64"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// Writing files, Gitea's contents API: create (POST), update (PUT, with
// the blob's sha), delete (DELETE, with the sha) one file, or change
// several in one commit (POST /contents). The commit goes on the branch
// (or a new branch) like a push: gitrepos.Repos.WriteFiles.

// maxFilesBody bounds a write's request: base64 content of a few MiB.
const maxFilesBody = 16 << 20

func (a *Handler) RegisterFileWrites(mux *http.ServeMux) {
	const repo = "/api/v1/repos/{owner}/{repo}"
	user := a.SignedIn
	mux.HandleFunc("POST "+repo+"/contents", user(auth.ScopeWrite, a.changeFiles))
	mux.HandleFunc("POST "+repo+"/contents/{path...}", user(auth.ScopeWrite, a.createFile))
	mux.HandleFunc("PUT "+repo+"/contents/{path...}", user(auth.ScopeWrite, a.updateFile))
	mux.HandleFunc("DELETE "+repo+"/contents/{path...}", user(auth.ScopeWrite, a.deleteFile))
}

// fileOptionsJSON is Gitea's FileOptions.
type fileOptionsJSON struct {
	Message       string           `json:"message"`
	BranchName    string           `json:"branch"`
	NewBranchName string           `json:"new_branch"`
	Author        api.IdentityJSON `json:"author"`
	Committer     api.IdentityJSON `json:"committer"`
	Dates         struct {
		Author    time.Time `json:"author"`
		Committer time.Time `json:"committer"`
	} `json:"dates"`
	Signoff bool `json:"signoff"`
}

// fileWriteJSON is Gitea's CreateFileOptions, UpdateFileOptions and
// DeleteFileOptions in one.
type fileWriteJSON struct {
	fileOptionsJSON
	Content  string `json:"content"`
	SHA      string `json:"sha"`
	FromPath string `json:"from_path"`
}

// changeFileJSON is Gitea's ChangeFileOperation.
type changeFileJSON struct {
	Operation string `json:"operation"`
	Path      string `json:"path"`
	Content   string `json:"content"`
	SHA       string `json:"sha"`
	FromPath  string `json:"from_path"`
}

// changeFilesJSON is Gitea's ChangeFilesOptions.
type changeFilesJSON struct {
	fileOptionsJSON
	Files []changeFileJSON `json:"files"`
}

// fileCommitJSON is Gitea's FileCommitResponse.
type fileCommitJSON struct {
	api.CommitMetaJSON
	HTMLURL   string               `json:"html_url"`
	Author    api.IdentityJSON     `json:"author"`
	Committer api.IdentityJSON     `json:"committer"`
	Parents   []api.CommitMetaJSON `json:"parents"`
	Message   string               `json:"message"`
	Tree      api.CommitMetaJSON   `json:"tree"`
}

// verificationJSON is Gitea's PayloadCommitVerification: dForge does not
// sign the commits it writes.
type verificationJSON struct {
	Verified  bool    `json:"verified"`
	Reason    string  `json:"reason"`
	Signature string  `json:"signature"`
	Signer    *string `json:"signer"`
	Payload   string  `json:"payload"`
}

// fileResponseJSON is Gitea's FileResponse (content null after a delete).
type fileResponseJSON struct {
	Content      *api.ContentJSON `json:"content"`
	Commit       fileCommitJSON   `json:"commit"`
	Verification verificationJSON `json:"verification"`
}

// filesResponseJSON is Gitea's FilesResponse.
type filesResponseJSON struct {
	Files        []*api.ContentJSON `json:"files"`
	Commit       fileCommitJSON     `json:"commit"`
	Verification verificationJSON   `json:"verification"`
}

var unsigned = verificationJSON{Reason: "gpg.error.not_signed_commit"}

// createFile adds a file; 422 when one is there already.
func (a *Handler) createFile(w http.ResponseWriter, r *http.Request) error {
	return a.writeOneFile(w, r, gitstore.OpCreate, http.StatusCreated)
}

// updateFile replaces a file's content (optionally moving it from
// from_path); sha must be the file's current blob.
func (a *Handler) updateFile(w http.ResponseWriter, r *http.Request) error {
	return a.writeOneFile(w, r, gitstore.OpUpdate, http.StatusOK)
}

// deleteFile deletes a file; sha must be its current blob.
func (a *Handler) deleteFile(w http.ResponseWriter, r *http.Request) error {
	return a.writeOneFile(w, r, gitstore.OpDelete, http.StatusOK)
}

func (a *Handler) writeOneFile(w http.ResponseWriter, r *http.Request, op string, status int) error {
	var in fileWriteJSON
	if err := api.Decode(w, r, maxFilesBody, &in); err != nil {
		return err
	}
	ch, err := fileChange(op, r.PathValue("path"), in.Content, in.SHA, in.FromPath)
	if err != nil {
		return err
	}
	out, err := a.commitFiles(r, in.fileOptionsJSON, []gitstore.FileWrite{ch})
	if err != nil {
		return err
	}
	resp := fileResponseJSON{Commit: out.Commit, Verification: unsigned}
	if len(out.Files) == 1 {
		resp.Content = out.Files[0]
	}
	api.WriteJSON(w, status, resp)
	return nil
}

// changeFiles writes several files in one commit.
func (a *Handler) changeFiles(w http.ResponseWriter, r *http.Request) error {
	var in changeFilesJSON
	if err := api.Decode(w, r, maxFilesBody, &in); err != nil {
		return err
	}
	if len(in.Files) == 0 {
		return usererr.BadFieldf("files", "files must name at least one change")
	}
	if len(in.Files) > maxChangeFiles {
		return usererr.BadFieldf("files", "at most %d files change in one commit", maxChangeFiles)
	}
	changes := make([]gitstore.FileWrite, 0, len(in.Files))
	seen := map[string]bool{}
	for _, f := range in.Files {
		op := f.Operation
		if op != gitstore.OpCreate && op != gitstore.OpUpdate && op != gitstore.OpDelete {
			return usererr.BadFieldf("operation", "operation must be create, update or delete, not %q", f.Operation)
		}
		ch, err := fileChange(op, f.Path, f.Content, f.SHA, f.FromPath)
		if err != nil {
			return err
		}
		if seen[ch.Path] {
			return usererr.BadFieldf("path", "%s is changed twice in one commit", ch.Path)
		}
		seen[ch.Path] = true
		changes = append(changes, ch)
	}
	out, err := a.commitFiles(r, in.fileOptionsJSON, changes)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, out)
	return nil
}

// maxChangeFiles bounds the files of one ChangeFiles commit.
const maxChangeFiles = 1000

// fileChange checks one change's fields.
func fileChange(op, path, content, sha, fromPath string) (gitstore.FileWrite, error) {
	p, err := gitstore.CleanPath(path)
	if err != nil || p == "" || hasGitDir(p) {
		return gitstore.FileWrite{}, usererr.BadFieldf("path", "path must name a file: relative to the repository's root, with no '.', '..' or '.git' segments, backslashes or control characters")
	}
	ch := gitstore.FileWrite{Op: op, Path: p, SHA: strings.ToLower(strings.TrimSpace(sha))}
	if op != gitstore.OpCreate && ch.SHA == "" {
		return gitstore.FileWrite{}, usererr.BadFieldf("sha", "sha (the file's current blob) is required to %s %s", op, p)
	}
	if ch.SHA != "" && !isHex(ch.SHA) {
		return gitstore.FileWrite{}, usererr.BadFieldf("sha", "sha must be a blob id in hex")
	}
	if fromPath != "" && op == gitstore.OpUpdate {
		if ch.FromPath, err = gitstore.CleanPath(fromPath); err != nil || ch.FromPath == "" || hasGitDir(ch.FromPath) {
			return gitstore.FileWrite{}, usererr.BadFieldf("from_path", "from_path must name a file of the repository")
		}
	}
	if op != gitstore.OpDelete {
		if ch.Content, err = base64.StdEncoding.DecodeString(content); err != nil {
			return gitstore.FileWrite{}, usererr.BadFieldf("content", "content must be base64 (standard alphabet, padded)")
		}
	}
	return ch, nil
}

// hasGitDir reports whether a segment of p is .git in any case, which
// git refuses in a tree.
func hasGitDir(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.EqualFold(seg, ".git") {
			return true
		}
	}
	return false
}

// commitFiles writes changes as one commit for the signed-in user and
// answers the commit with the contents of the files it leaves.
func (a *Handler) commitFiles(r *http.Request, o fileOptionsJSON, changes []gitstore.FileWrite) (filesResponseJSON, error) {
	id, err := api.RequireUser(r)
	if err != nil {
		return filesResponseJSON{}, err
	}
	c, err := a.codeOf(r)
	if err != nil {
		return filesResponseJSON{}, err
	}
	ch, err := filesChange(r, id.User, c, o, changes)
	if err != nil {
		return filesResponseJSON{}, err
	}
	res, err := a.Hosting.WriteFiles(r.Context(), &id.User, c.Repo, ch)
	if err != nil {
		return filesResponseJSON{}, err
	}
	return a.filesResponse(r, c, res, changes)
}

// filesChange fills the commit's defaults: the default branch, Gitea's
// messages, and the signed-in user as author and committer.
func filesChange(r *http.Request, u auth.User, c api.Code, o fileOptionsJSON, changes []gitstore.FileWrite) (gitrepos.FilesChange, error) {
	ch := gitrepos.FilesChange{Branch: o.BranchName, NewBranch: o.NewBranchName, Changes: changes, Message: o.Message}
	if ch.Branch == "" {
		ch.Branch = c.Repo.DefaultBranch
	}
	if err := gitrepos.CheckBranch("branch", ch.Branch); err != nil {
		return ch, err
	}
	if strings.TrimSpace(ch.Message) == "" {
		ch.Message = defaultMessage(changes)
	}
	if strings.ContainsRune(ch.Message, 0) {
		return ch, usererr.BadFieldf("message", "the message may not hold a NUL character")
	}
	self := gitstore.Signature{Name: authorName(u), Email: gitrepos.AccountEmail(u.Address)}
	author, err := identity("author", o.Author, self)
	if err != nil {
		return ch, err
	}
	committer, err := identity("committer", o.Committer, author)
	if err != nil {
		return ch, err
	}
	if o.Author.Name == "" && o.Author.Email == "" {
		author = committer
	}
	now := time.Now()
	author.When, committer.When = orNow(o.Dates.Author, now), orNow(o.Dates.Committer, now)
	ch.Author, ch.Committer = author, committer
	return ch, nil
}

func orNow(t, now time.Time) time.Time {
	if t.IsZero() {
		return now
	}
	return t
}

// authorName is the name a commit of u carries: the profile's full name,
// else the username (claimed or default).
func authorName(u auth.User) string {
	if n := strings.TrimSpace(u.Profile.FullName); n != "" {
		return n
	}
	return api.UsernameOf(u)
}

// identity is a git identity from the request, or def when it gives none.
// Git refuses names and emails with angle brackets or line breaks.
func identity(field string, in api.IdentityJSON, def gitstore.Signature) (gitstore.Signature, error) {
	if in.Name == "" && in.Email == "" {
		return def, nil
	}
	s := gitstore.Signature{Name: strings.TrimSpace(in.Name), Email: strings.TrimSpace(in.Email)}
	if s.Name == "" {
		s.Name = def.Name
	}
	if s.Email == "" {
		s.Email = def.Email
	}
	for _, v := range []string{s.Name, s.Email} {
		if len(v) > 256 || strings.ContainsAny(v, "<>\n\r\x00") {
			return s, usererr.BadFieldf(field, "the %s's name and email may not hold '<', '>', line breaks or NUL, and are at most 256 bytes", field)
		}
	}
	return s, nil
}

// defaultMessage is Gitea's message for a commit that names none.
func defaultMessage(changes []gitstore.FileWrite) string {
	if len(changes) != 1 {
		return "Update files"
	}
	verb := map[string]string{gitstore.OpCreate: "Add", gitstore.OpUpdate: "Update", gitstore.OpDelete: "Delete"}[changes[0].Op]
	return verb + " " + changes[0].Path
}

// filesResponse is the written commit with the contents of the files it
// created or updated (null for a deleted one).
func (a *Handler) filesResponse(r *http.Request, c api.Code, res gitrepos.FilesResult, changes []gitstore.FileWrite) (filesResponseJSON, error) {
	g, err := gitstore.CommitByID(r.Context(), c.Dir, res.Commit)
	if err != nil {
		return filesResponseJSON{}, err
	}
	out := filesResponseJSON{Commit: fileCommit(c, g), Verification: unsigned, Files: make([]*api.ContentJSON, 0, len(changes))}
	for _, ch := range changes {
		if ch.Op == gitstore.OpDelete {
			out.Files = append(out.Files, nil)
			continue
		}
		e, err := gitstore.Stat(r.Context(), c.Dir, res.Commit, ch.Path)
		if err != nil {
			return filesResponseJSON{}, err
		}
		e.Path = ch.Path
		j := c.Content(e, res.Branch)
		j.LastCommitSHA = res.Commit
		if len(ch.Content) <= api.MaxContentSize {
			j.Encoding, j.Content = api.Ptr("base64"), api.Ptr(base64.StdEncoding.EncodeToString(ch.Content))
		}
		out.Files = append(out.Files, &j)
	}
	return out, nil
}

func fileCommit(c api.Code, g gitstore.Commit) fileCommitJSON {
	apiURL := c.Api + "/git/commits/" + g.ID
	j := fileCommitJSON{
		CommitMetaJSON: api.CommitMetaJSON{URL: apiURL, SHA: g.ID, Created: api.Rfc3339(g.Committer)},
		HTMLURL:        c.Html + "/commit/" + g.ID,
		Author:         api.IdentityJSON{Name: g.Author.Name, Email: g.Author.Email, Date: api.Rfc3339(g.Author)},
		Committer:      api.IdentityJSON{Name: g.Committer.Name, Email: g.Committer.Email, Date: api.Rfc3339(g.Committer)},
		Message:        g.Message,
		Tree:           api.CommitMetaJSON{URL: c.Api + "/git/trees/" + g.Tree, SHA: g.Tree},
		Parents:        []api.CommitMetaJSON{},
	}
	for _, p := range g.Parents {
		j.Parents = append(j.Parents, api.CommitMetaJSON{URL: c.Api + "/git/commits/" + p, SHA: p})
	}
	return j
}
