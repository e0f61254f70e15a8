package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// Tags, as Gitea's Tag list: commit.created is the commit's committer
// date, and an annotated tag adds its tagger (name, email, date). Tags are
// created (lightweight without a message, annotated with one, signed by
// the signed-in user) and deleted as Gitea's routes; each is a push
// recorded on chain before git moves the ref (gitrepos/tags.go).

func (a *Handler) RegisterTagWrites(mux *http.ServeMux) {
	if a.Hosting == nil {
		return
	}
	const repo = "/api/v1/repos/{owner}/{repo}"
	user := a.SignedIn
	mux.HandleFunc("GET "+repo+"/tags/{tag...}", a.Serve(a.getTag))
	mux.HandleFunc("POST "+repo+"/tags", user(auth.ScopeWrite, a.createTag))
	mux.HandleFunc("DELETE "+repo+"/tags/{tag...}", user(auth.ScopeWrite, a.deleteTag))
	mux.HandleFunc("GET "+repo+"/git/tags/{sha}", a.Serve(a.getAnnotatedTag))
}

func (a *Handler) listTags(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	tags, err := gitstore.Tags(r.Context(), c.Dir)
	if err != nil {
		return err
	}
	out := []api.TagJSON{}
	for _, t := range api.PageSlice(tags, p) {
		out = append(out, tag(c, t))
	}
	return a.RespondList(w, r, p, int64(len(tags)), out, nil)
}

// tag is t as Gitea's Tag; its archives are the archive route's.
func tag(c api.Code, t gitstore.Tag) api.TagJSON {
	j := api.TagJSON{Name: t.Name, Message: t.Message, ID: t.ID, ZipballURL: c.Api + "/archive/" + t.Name + ".zip", TarballURL: c.Api + "/archive/" + t.Name + ".tar.gz"}
	if t.Commit != "" {
		j.Commit = &struct {
			api.CommitMetaJSON
			CID string `json:"cid,omitempty"`
		}{api.CommitMetaJSON{URL: c.Api + "/git/commits/" + t.Commit, SHA: t.Commit, Created: api.Rfc3339(gitstore.Signature{When: t.Committed})}, c.CidOf(t.Commit)}
	}
	if t.Annotated && !t.Tagger.When.IsZero() {
		j.Tagger = &api.TagTaggerJSON{Name: t.Tagger.Name, Email: t.Tagger.Email, Date: api.Rfc3339(t.Tagger)}
	}
	return j
}

func (a *Handler) getTag(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	t, ok, err := gitstore.TagNamed(r.Context(), c.Dir, r.PathValue("tag"))
	if err != nil {
		return err
	}
	if !ok {
		return usererr.Missingf("tag %s does not exist", r.PathValue("tag"))
	}
	api.WriteJSON(w, http.StatusOK, tag(c, t))
	return nil
}

func (a *Handler) createTag(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	var in struct {
		TagName string `json:"tag_name"`
		Message string `json:"message"`
		Target  string `json:"target"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if gitstore.IsEmpty(c.Dir) {
		return errEmptyRepo
	}
	// Git refuses angle brackets and line breaks in a tagger's name.
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune("<>\n\r\x00", r) {
			return -1
		}
		return r
	}, authorName(id.User))
	tagger := gitstore.Signature{Name: name, Email: gitrepos.AccountEmail(id.User.Address), When: time.Now()}
	t, err := a.Hosting.CreateTag(r.Context(), id.User.Address, c.Repo, gitrepos.NewTag{Name: in.TagName, Target: in.Target, Message: in.Message, Tagger: tagger})
	if err != nil {
		return a.HostingError(w, r, err)
	}
	api.WriteJSON(w, http.StatusCreated, tag(c, t))
	return nil
}

func (a *Handler) deleteTag(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	if err := a.Hosting.DeleteTag(r.Context(), id.User.Address, rec, r.PathValue("tag")); err != nil {
		return a.HostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// annotatedTagJSON is Gitea's AnnotatedTag.
type annotatedTagJSON struct {
	Tag          string                 `json:"tag"`
	SHA          string                 `json:"sha"`
	URL          string                 `json:"url"`
	Message      string                 `json:"message"`
	Tagger       *api.TagTaggerJSON     `json:"tagger"`
	Object       annotatedTagObjectJSON `json:"object"`
	Verification *verificationJSON      `json:"verification"`
}

// annotatedTagObjectJSON is Gitea's AnnotatedTagObject.
type annotatedTagObjectJSON struct {
	Type string `json:"type"`
	URL  string `json:"url"`
	SHA  string `json:"sha"`
}

// unsignedTag is the verification of the tags dForge writes: unsigned.
var unsignedTag = verificationJSON{Reason: "gpg.error.not_signed_tag"}

func (a *Handler) getAnnotatedTag(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	sha := r.PathValue("sha")
	t, ok, err := gitstore.AnnotatedTag(r.Context(), c.Dir, sha)
	if err != nil {
		return err
	}
	if !ok {
		return usererr.Missingf("there is no annotated tag object %s", sha)
	}
	j := annotatedTagJSON{Tag: t.Name, SHA: t.ID, URL: c.Api + "/git/tags/" + t.ID, Message: t.Message,
		Tagger:       &api.TagTaggerJSON{Name: t.Tagger.Name, Email: t.Tagger.Email, Date: api.Rfc3339(t.Tagger)},
		Object:       annotatedTagObjectJSON{Type: "commit", URL: c.Api + "/git/commits/" + t.Commit, SHA: t.Commit},
		Verification: &unsignedTag}
	api.WriteJSON(w, http.StatusOK, j)
	return nil
}
