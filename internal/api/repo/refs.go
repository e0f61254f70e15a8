package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// The repository's refs (/git/refs[/{ref...}]), as Gitea's Reference list.

func (a *Handler) listRefs(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	prefix := "refs/"
	if sub := strings.TrimPrefix(r.PathValue("ref"), "refs/"); sub != "" {
		if _, err := gitstore.CleanPath(sub); err != nil {
			return usererr.InvalidField("ref", "invalid_ref", "that is not a ref name")
		}
		prefix += sub
	}
	refs, err := gitstore.RefNames(r.Context(), c.Dir, "refs/")
	if err != nil {
		return err
	}
	out := []api.RefJSON{}
	for _, ref := range refs {
		if !strings.HasPrefix(ref.Name, prefix) {
			continue
		}
		j := api.RefJSON{Ref: ref.Name, URL: c.Api + "/git/" + api.EscapePath(ref.Name)}
		j.Object.SHA = ref.ID
		j.Object.Type, _ = gitstore.ObjectType(r.Context(), c.Dir, ref.ID)
		j.Object.URL = c.Api + "/git/" + j.Object.Type + "s/" + ref.ID
		if j.Object.Type == "commit" {
			j.Object.URL = c.Api + "/git/commits/" + ref.ID
		}
		out = append(out, j)
	}
	if len(out) == 0 && prefix != "refs/" {
		return usererr.Newf(usererr.NotFound, "ref_not_found", "no ref starts with %s", prefix)
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}
