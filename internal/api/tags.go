package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/gitstore"
)

// Tags, as Gitea's Tag list.

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
			}{commitMetaJSON{URL: c.api + "/git/commits/" + t.Commit, SHA: t.Commit}, c.cidOf(t.Commit)}
		}
		out = append(out, j)
	}
	return a.respondList(w, r, p, int64(len(tags)), out, nil)
}
