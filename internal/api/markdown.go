package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/usererr"
)

const maxMarkdownBody = 1 << 20

// markdownOption is Gitea's MarkdownOption; encoding/json matches its
// capitalised field names and our lower-case ones alike.
type markdownOption struct {
	Text string
	Mode string
}

// postMarkdown renders Markdown to sanitized HTML, as Gitea's POST /markdown does.
func (a *API) postMarkdown(w http.ResponseWriter, r *http.Request) {
	var opt markdownOption
	if err := decode(w, r, maxMarkdownBody, &opt); err != nil {
		a.writeError(w, r, err)
		return
	}
	switch opt.Mode {
	case "", "gfm", "markdown", "comment":
	default:
		a.writeError(w, r, usererr.InvalidField("mode", "invalid_mode", "mode must be gfm, markdown or comment"))
		return
	}
	html, err := a.markdown.Render([]byte(opt.Text))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(html))
}
