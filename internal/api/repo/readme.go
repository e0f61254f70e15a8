package repo

import (
	"github.com/dforge/dforge/internal/api"
	"html"
	"net/http"
	"path"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// dForge's own: a directory's README rendered on the server.

// readmeNames are the READMEs looked for, best first (any case).
var readmeNames = []string{"readme.md", "readme.markdown", "readme", "readme.txt", "readme.rst"}

func (a *Handler) getReadme(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	dir, err := gitstore.CleanPath(q.Get("dir"))
	if err != nil {
		return gitError(err)
	}
	commit, _, err := a.resolve(r, c, q.Get("ref"))
	if err != nil {
		return err
	}
	entries, err := gitstore.Tree(r.Context(), c.Dir, commit, dir)
	if err != nil {
		return gitError(err)
	}
	var found *gitstore.Entry
	for _, want := range readmeNames {
		for i, e := range entries {
			if e.Type == "blob" && strings.ToLower(e.Name) == want {
				found = &entries[i]
				break
			}
		}
		if found != nil {
			break
		}
	}
	if found == nil {
		return usererr.Missingf("this directory has no README")
	}
	data, err := gitstore.ReadBlob(r.Context(), c.Dir, found.ID, api.MaxReadmeSize)
	if err != nil {
		return err
	}
	var out string
	switch ext := strings.ToLower(path.Ext(found.Name)); {
	case gitstore.IsBinary(data):
		out = ""
	case ext == ".md" || ext == ".markdown":
		if out, err = a.Markdown.RenderStored(data); err != nil {
			return err
		}
	default:
		out = "<pre>" + html.EscapeString(string(data)) + "</pre>"
	}
	api.WriteJSON(w, http.StatusOK, map[string]any{"name": found.Name, "path": found.Path, "sha": found.ID, "size": found.Size,
		"truncated": found.Size > api.MaxReadmeSize, "html": out})
	return nil
}
