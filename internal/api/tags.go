package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/gitstore"
)

// Tags, as Gitea's Tag list: commit.created is the commit's committer
// date, and an annotated tag adds its tagger (name, email, date).

func (a *API) listTags(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	tags, err := gitstore.Tags(r.Context(), c.dir)
	if err != nil {
		return err
	}
	out := []tagJSON{}
	for _, t := range pageSlice(tags, p) {
		j := tagJSON{Name: t.Name, Message: t.Message, ID: t.ID}
		if t.Commit != "" {
			j.Commit = &struct {
				commitMetaJSON
				CID string `json:"cid,omitempty"`
			}{commitMetaJSON{URL: c.api + "/git/commits/" + t.Commit, SHA: t.Commit, Created: rfc3339(gitstore.Signature{When: t.Committed})}, c.cidOf(t.Commit)}
		}
		if t.Annotated && !t.Tagger.When.IsZero() {
			j.Tagger = &tagTaggerJSON{Name: t.Tagger.Name, Email: t.Tagger.Email, Date: rfc3339(t.Tagger)}
		}
		out = append(out, j)
	}
	return a.respondList(w, r, p, int64(len(tags)), out, nil)
}
