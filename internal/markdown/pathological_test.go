package markdown_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/markdown"
)

// Inputs on which goldmark's parse is quadratic (or its output much larger
// than its input), each built to about n bytes. Most come from the
// CommonMark implementations' pathological suites and goldmark's issues.

// rep repeats s to about n bytes.
func rep(s string) func(int) string {
	return func(n int) string { return strings.Repeat(s, max(n/len(s), 1)) }
}

// wrap repeats mid between pre and post to about n bytes.
func wrap(pre, mid, post string) func(int) string {
	return func(n int) string {
		return pre + strings.Repeat(mid, max((n-len(pre)-len(post))/len(mid), 1)) + post
	}
}

var pathological = map[string]func(n int) string{
	"link-open":       rep("[a]("),
	"image-open":      rep("![a]("),
	"empty-link-open": rep("[]("),
	"space-paren":     rep("[ (]("),
	"img-brackets":    rep("![[]()"),
	"unclosed-angle":  rep("[a](<b"),
	"unclosed-dest":   rep("[a](b"),
	"gt":              rep(">"),
	"gt-space":        wrap("", "> ", "a"),
	"quote-list":      rep("> - "),
	"ordered":         rep("1. "),
	"dash-space":      wrap("", "- ", "x"),
	"star-space":      wrap("", "* ", "a"),
	"plus-space":      wrap("", "+ ", "a"),
	"nested-lists": func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("  ", i) + "* a\n")
		}
		return b.String()
	},
	"nested-lists-4": func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("    ", i) + "1. a\n")
		}
		return b.String()
	},
	"stars":           rep("*"),
	"unders":          rep("_"),
	"lbrackets":       rep("["),
	"rbrackets":       rep("]"),
	"nested-brackets": func(n int) string { return strings.Repeat("[", n/2) + "a" + strings.Repeat("]", n/2) },
	"a-rbracket":      rep("a]"),
	"lbracket-a":      rep("[a"),
	"backticks":       rep("`"),
	"backtick-runs": func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < n; i++ {
			b.WriteString("e" + strings.Repeat("`", i))
		}
		return b.String()
	},
	"esc-backticks": rep("\\``"),
	"backticks-esc": rep("``\\"),
	"lt":            rep("<"),
	"lt-gt":         rep("<>"),
	"lt-a":          rep("<a"),
	"html-comment":  rep("a <!--a\n"),
	"comment-open":  wrap("</", "<!--", ""),
	"cdata":         rep("a <![CDATA[\n"),
	"pi":            rep("a <?\n"),
	"decl":          rep("a <!A\n"),
	"a-under":       rep("a_"),
	"under-a":       rep("_a"),
	"sp-a-under":    wrap(" ", "a_", ""),
	"a-under-sp":    rep("a_ "),
	"under-a-sp":    rep("_a "),
	"mismatch":      rep("*a_ "),
	"mult3":         wrap("a**b", "c* ", ""),
	"link-emph":     rep("[ a_"),
	"strong-u-star": rep("**_* "),
	"a-3stars":      rep("a***"),
	"nested-emph": func(n int) string {
		k := n / 14
		return strings.Repeat("*a **a ", k) + "b" + strings.Repeat(" a** a*", k)
	},
	"bracket-emph": rep("[*_a"),
	"emph-mix":     rep("*a_b*c_d**e_f*g**h*i_j**"),
	"strike":       rep("~~a"),
	"tildes":       rep("~"),
	"tilde-a":      rep("~a"),
	"table-rows": func(n int) string {
		return "| a | b |\n|---|---|\n" + strings.Repeat("| c | d |\n", n/10)
	},
	"table-wide": func(n int) string {
		c := n / 8
		return strings.Repeat("|a", c) + "|\n" + strings.Repeat("|-", c) + "|\n" + strings.Repeat("a\n", c)
	},
	"pipes":    rep("|"),
	"pipe-a":   rep("|a"),
	"ref-defs": rep("[a]: b\n"),
	"ref-defs-uniq": func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "[r%d]: /u%d\n", i, i)
		}
		return b.String()
	},
	"ref-uses":       wrap("[a]: /b\n\n", "[a] ", ""),
	"ref-full":       wrap("", "[a][b", ""),
	"www":            rep("www."),
	"http":           rep("http://"),
	"at":             rep("a@"),
	"dot-at":         rep("a.b@"),
	"www-a":          rep("www.a"),
	"amp-hash":       rep("&#"),
	"amp":            rep("&"),
	"backslash":      rep("\\"),
	"tasks":          rep("- [ ] a\n"),
	"hashes":         rep("#"),
	"headings-dup":   rep("# a\n"),
	"headings-empty": rep("#\n"),
	"setext":         rep("a\n=\n"),
	"code-indented":  rep("    a\n"),
	"fences":         rep("```\n"),
	"html-blocks":    rep("<div>\n"),
	"hard-breaks":    rep("a  \n"),
	"nul":            rep("\x00"),
	"colon-slash":    wrap("", "<", strings.Repeat(":/", 1)),
	"lt-colon":       func(n int) string { return strings.Repeat("<", n/2) + strings.Repeat(":/", n/4) },
	"quote-lines": func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat(">", i%200) + " a\n")
		}
		return b.String()
	},
	"tabs-quote":       rep(">\t"),
	"tab-list":         rep("-\t"),
	"emph-under-words": rep("_a_b "),
	"link-text-long":   wrap("[", "a", "](b)"),
	"autolink-long":    wrap("<http://", "a", ">"),
	"many-links":       rep("[a](b) "),
	"dest-parens":      wrap("[a](", "(", ")"),
	"title-open":       rep("[a](b \"c"),
	"title-paren":      rep("[a](b (c"),
	"ref-def-open":     rep("[a]: b \"c\n"),
	"footnote-like":    rep("[^a]"),
	"emoji-colon":      rep(":a"),
	"http-sp":          rep("http:// "),
	"www-sp":           rep("www. "),
	"https-x-sp":       rep("https:/ "),
	"ftp-sp":           rep("ftp:// "),
	"email-ish":        rep("a@ "),
	"email-long":       rep("a.a.a.a.a@ "),
	"esc-pipe-table":   wrap("|a|\n|-|\n", "|`\\|`|\n", ""),
	"esc-bt-nl":        rep("\\``\n"),
	"bt-a-nl":          rep("`a``\n"),
	"title-open-nl":    rep("[a](b \"c\n"),
	"title-paren-nl":   rep("[a](b (c\n"),
	"link-open-nl":     rep("[a](\n"),
	"link-sp":          rep("[a]( "),
	"lbr-nl":           rep("[\n"),
	"lbr-a-nl":         rep("[a\n"),
	"refdef-title-nl":  rep("[a]: b\n'c\n"),
	"refdef-label-nl":  rep("[a\n"),
	"html-open-nl":     rep("<a\n"),
	"html-attr-nl":     rep("<a b=\"\n"),
	"emph-nl":          rep("*a_\n"),
	"mult3-nl":         wrap("a**b", "c*\n", ""),
	"strong-u-star-nl": rep("**_*\n"),
	"gt-nl":            rep(">\n"),
	"list-cont":        wrap(strings.Repeat("> ", 2000)+"a\n", strings.Repeat(">", 2000)+"a\n", ""),
	"star-nl":          rep("*a\n"),
	"autolink-email":   rep("a@b."),
	"linkify-www-dots": rep("www.a."),
	"under-www":        rep("_www.a"),
	"task-nested":      rep("- [ ] "),
	"heading-ids": func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "# a-%d\n# a\n", i)
		}
		return b.String()
	},
}

// TestRenderPathological renders each pathological input at the API's
// limit (pathologicalSize): every render must finish (run with -timeout
// 60s: goldmark alone took minutes on several) and write HTML at most
// linear in its input. BenchmarkRenderPathological times them at a
// README's 1 MiB.
func TestRenderPathological(t *testing.T) {
	t.Parallel()
	r := markdown.New()
	for name, gen := range pathological {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := gen(pathologicalSize)
			html, err := r.Render([]byte(src))
			if err != nil {
				t.Fatalf("%d bytes: %v", len(src), err)
			}
			if limit := 32*len(src) + 64<<10; len(html) > limit {
				t.Errorf("%d bytes rendered to %d bytes of HTML, over %d", len(src), len(html), limit)
			}
		})
	}
}

// go test -run '^$' -bench RenderPathological ./internal/markdown/
func BenchmarkRenderPathological(b *testing.B) {
	r := markdown.New()
	names := slices.Sorted(maps.Keys(pathological))
	for _, name := range names {
		src := []byte(pathological[name](1 << 20))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := r.Render(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRenderTooComplexIsText: a document over its budget is shown as its
// own text, escaped.
func TestRenderTooComplexIsText(t *testing.T) {
	t.Parallel()
	src := strings.Repeat("[a](", 1<<16) + "<script>"
	html, err := markdown.New().Render([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := "<pre>" + strings.Repeat("[a](", 1<<16) + "&lt;script&gt;</pre>"; html != want {
		t.Errorf("got %.80q..., want the text in <pre>", html)
	}
}
