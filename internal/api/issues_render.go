package api

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"
)

// Issue, comment and review bodies are Markdown, rendered on the server
// (internal/markdown: goldmark, then bluemonday) into body_html. Mentions
// (@name) and references (#N) become links in that same step, on the
// sanitized HTML's text: never inside a link, code or pre, so code samples
// keep their '#' and '@' as they are. Only names and numbers that exist
// become links, as in Gitea.

// mentionRe and refRe find candidates in a text node; the character before
// must not be part of a word (so mail addresses and URLs' fragments stay
// text), which the match's first group carries.
var (
	mentionRe = regexp.MustCompile(`(^|[^\w@/.-])@([A-Za-z0-9][A-Za-z0-9_.-]{0,38}[A-Za-z0-9]|[A-Za-z0-9])`)
	refRe     = regexp.MustCompile(`(^|[^\w&/#-])#([1-9][0-9]{0,9})\b`)
)

// maxLookups bounds the names and numbers one body may look up.
const maxLookups = 64

// linker resolves what may be linked while rendering one body.
type linker struct {
	owner, repo string // the repository #N refers to
	user        func(ctx context.Context, name string) (string, bool)
	issue       func(ctx context.Context, number uint64) bool
	seen        map[string]string // candidate -> href ("" when not linked)
}

// RenderBody renders Markdown body to sanitized HTML with mentions and
// references linked.
func (a *API) RenderBody(ctx context.Context, l *linker, body string) string {
	if strings.TrimSpace(body) == "" {
		return ""
	}
	out, err := a.Markdown.RenderStored([]byte(body))
	if err != nil {
		a.Log.WarnContext(ctx, "render a body", "err", err)
		return "<p>" + html.EscapeString(body) + "</p>"
	}
	if l == nil || !strings.ContainsAny(out, "@#") {
		return out
	}
	return l.link(ctx, out)
}

// link rewrites the text of html (already sanitized) outside a, code and
// pre, turning mentions and references into links.
func (l *linker) link(ctx context.Context, src string) string {
	if l.seen == nil {
		l.seen = map[string]string{}
	}
	z := xhtml.NewTokenizer(strings.NewReader(src))
	var out bytes.Buffer
	skip := 0 // depth inside a, code or pre
	for {
		tt := z.Next()
		switch tt {
		case xhtml.ErrorToken:
			if z.Err() == io.EOF {
				return out.String()
			}
			return src // not what the sanitizer writes: leave it alone
		case xhtml.StartTagToken, xhtml.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "a", "code", "pre":
				if tt == xhtml.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
			}
			out.Write(z.Raw())
		case xhtml.TextToken:
			if skip > 0 {
				out.Write(z.Raw())
				continue
			}
			out.WriteString(l.linkText(ctx, string(z.Text())))
		default:
			out.Write(z.Raw())
		}
	}
}

// linkText escapes text, with its mentions and references as links.
func (l *linker) linkText(ctx context.Context, text string) string {
	type span struct {
		start, end  int
		href, label string
	}
	var spans []span
	for _, m := range mentionRe.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[4]:m[5]]
		if href := l.resolve(ctx, "@"+name); href != "" {
			spans = append(spans, span{m[4] - 1, m[5], href, "@" + name})
		}
	}
	for _, m := range refRe.FindAllStringSubmatchIndex(text, -1) {
		num := text[m[4]:m[5]]
		if href := l.resolve(ctx, "#"+num); href != "" {
			spans = append(spans, span{m[4] - 1, m[5], href, "#" + num})
		}
	}
	if len(spans) == 0 {
		return html.EscapeString(text)
	}
	// Mentions and references never overlap ('@' and '#' start them), but
	// keep the output ordered.
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].start < spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s.start < at {
			continue
		}
		b.WriteString(html.EscapeString(text[at:s.start]))
		class := "mention"
		if s.label[0] == '#' {
			class = "ref-issue"
		}
		fmt.Fprintf(&b, `<a href="%s" class="%s">%s</a>`, html.EscapeString(s.href), class, html.EscapeString(s.label))
		at = s.end
	}
	b.WriteString(html.EscapeString(text[at:]))
	return b.String()
}

// resolve gives the link of "@name" or "#N", "" when there is none.
func (l *linker) resolve(ctx context.Context, key string) string {
	if href, ok := l.seen[key]; ok {
		return href
	}
	if len(l.seen) >= maxLookups {
		return ""
	}
	href := ""
	switch key[0] {
	case '@':
		if l.user != nil {
			if name, ok := l.user(ctx, key[1:]); ok {
				href = "/user/" + url.PathEscape(name)
			}
		}
	case '#':
		n, err := strconv.ParseUint(key[1:], 10, 64)
		if err == nil && l.issue != nil && l.owner != "" && l.issue(ctx, n) {
			href = "/" + url.PathEscape(l.owner) + "/" + url.PathEscape(l.repo) + "/issues/" + key[1:]
		}
	}
	l.seen[key] = href
	return href
}
