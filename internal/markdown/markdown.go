// Package markdown renders user and site Markdown to HTML on the server and
// sanitizes the result, so no page ever trusts Markdown-produced HTML.
package markdown

import (
	"bytes"
	"fmt"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// Renderer turns Markdown into sanitized HTML. It is safe for concurrent use.
type Renderer struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
}

// New returns a Renderer for GitHub-flavoured Markdown.
func New() *Renderer {
	policy := bluemonday.UGCPolicy()
	// Heading ids make in-page anchors work; code classes carry the language
	// for the client's lazy highlighter.
	policy.AllowAttrs("id").OnElements("h1", "h2", "h3", "h4", "h5", "h6")
	policy.AllowAttrs("class").Matching(bluemonday.SpaceSeparatedTokens).OnElements("code")
	return &Renderer{
		md: goldmark.New(
			goldmark.WithExtensions(extension.GFM),
			goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		),
		policy: policy,
	}
}

// Render converts src to sanitized HTML.
func (r *Renderer) Render(src []byte) (string, error) {
	var buf bytes.Buffer
	if err := r.md.Convert(src, &buf); err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return r.policy.Sanitize(buf.String()), nil
}
