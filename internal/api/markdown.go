package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/usererr"
)

// maxMarkdownText bounds the text POST /markdown renders. Gitea has no
// limit; rendering costs time linear in the text (internal/markdown), and
// this keeps one anonymous request's share small. Stored bodies are at most
// 64 KiB, READMEs are rendered from the repository.
const maxMarkdownText = 256 << 10

// maxMarkdownBody leaves room for JSON's escapes of that text ("\u003c").
const maxMarkdownBody = 6*maxMarkdownText + 4<<10

// markdownOption is Gitea's MarkdownOption; encoding/json matches its
// capitalised field names and our lower-case ones alike.
type markdownOption struct {
	Text string
	Mode string
}

// postMarkdown renders Markdown to sanitized HTML, as Gitea's POST /markdown does.
func (a *API) postMarkdown(w http.ResponseWriter, r *http.Request) error {
	var opt markdownOption
	err := Decode(w, r, maxMarkdownBody, &opt)
	if ue, ok := usererr.As(err); (ok && ue.Kind == usererr.TooLarge) || len(opt.Text) > maxMarkdownText {
		err = usererr.Unprocessablef("text", usererr.CodeTooLarge, "the text is too large to render: the most is %d bytes", maxMarkdownText)
	}
	if err != nil {
		return err
	}
	switch opt.Mode {
	case "", "gfm", "markdown", "comment":
	default:
		return usererr.InvalidField("mode", "invalid_mode", "mode must be gfm, markdown or comment")
	}
	html, err := a.Markdown.Render([]byte(opt.Text))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(html))
	return nil
}
