// Package markdown renders user and site Markdown to HTML on the server and
// sanitizes the result, so no page ever trusts Markdown-produced HTML.
package markdown

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// maxOutputPerByte and maxOutputBase bound the HTML goldmark may write for
// an input (ordinary Markdown writes about twice its size; nested quotes
// and lists, many times more).
const (
	maxOutputPerByte = 32
	maxOutputBase    = 64 << 10
)

// Renderer turns Markdown into sanitized HTML. It is safe for concurrent use.
type Renderer struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
	cache  *cache
}

// New returns a Renderer for GitHub-flavoured Markdown.
func New() *Renderer {
	policy := bluemonday.UGCPolicy()
	// Heading ids make in-page anchors work; code classes carry the language
	// for the client's lazy highlighter.
	policy.AllowAttrs("id").OnElements("h1", "h2", "h3", "h4", "h5", "h6")
	policy.AllowAttrs("class").Matching(bluemonday.SpaceSeparatedTokens).OnElements("code")
	// Task list items ("- [ ] x") render as disabled checkboxes; the client
	// enables them for people who may edit the text. keepTaskCheckboxes
	// then drops any input that is not exactly such a checkbox.
	policy.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	policy.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^$`)).OnElements("input")

	// The extensions register their parsers with rec; they run wrapped in
	// meters (budget.go).
	rec := &configRecorder{cfg: parser.NewConfig()}
	rec.AddOptions(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		parser.WithAutoHeadingID(),
	)
	md := goldmark.New(goldmark.WithParser(rec), goldmark.WithExtensions(extension.GFM))
	md.SetParser(parser.NewParser(meteredConfig(rec.cfg)...))
	return &Renderer{md: md, policy: policy, cache: newCache(cacheEntries, cacheBytes)}
}

// Render converts src to sanitized HTML. Its cost is bounded by src's size:
// Markdown that would take goldmark more is shown as preformatted text.
func (r *Renderer) Render(src []byte) (string, error) {
	out, err := r.convert(src)
	if err == errTooComplex {
		return r.sanitize("<pre>" + html.EscapeString(string(src)) + "</pre>"), nil
	}
	if err != nil {
		return "", err
	}
	return r.sanitize(out), nil
}

// sanitize keeps the HTML the policy allows, and of inputs only task
// checkboxes.
func (r *Renderer) sanitize(h string) string {
	return keepTaskCheckboxes(r.policy.Sanitize(h))
}

// inputTag matches an input element as bluemonday writes it; taskCheckbox,
// the only kind kept: a disabled checkbox, ticked or not.
var (
	inputTag     = regexp.MustCompile(`<input[^>]*>`)
	taskCheckbox = regexp.MustCompile(`^<input (checked="" )?disabled="" type="checkbox"/?>$`)
)

// keepTaskCheckboxes removes from sanitized HTML every input that is not a
// task list's checkbox (goldmark omits raw HTML, so none should exist).
func keepTaskCheckboxes(h string) string {
	if !strings.Contains(h, "<input") {
		return h
	}
	return inputTag.ReplaceAllStringFunc(h, func(tag string) string {
		if taskCheckbox.MatchString(tag) {
			return tag
		}
		return ""
	})
}

// RenderStored is Render for stored text (issue and comment bodies, reviews,
// READMEs), which is read far more often than written: the HTML is kept in a
// bounded cache keyed by src's hash.
func (r *Renderer) RenderStored(src []byte) (string, error) {
	return r.cache.get(src, func() (string, error) { return r.Render(src) })
}

// convert runs goldmark within src's budget, giving errTooComplex when
// the parse spends it or the HTML outgrows maxOutput.
func (r *Renderer) convert(src []byte) (out string, err error) {
	pc := parser.NewContext()
	pc.Set(meterKey, newMeter(len(src)))
	defer func() {
		if v := recover(); v != nil {
			if v != errTooComplex {
				panic(v)
			}
			err = errTooComplex
		}
	}()
	var buf bytes.Buffer
	if err := r.md.Convert(src, &buf, parser.WithContext(pc)); err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	if buf.Len() > maxOutputPerByte*len(src)+maxOutputBase {
		return "", errTooComplex
	}
	return buf.String(), nil
}
