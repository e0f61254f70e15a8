package markdown

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// TestMeteredIsGoldmark: the meters change nothing goldmark writes for
// Markdown within its budget (among it, the settled delimiters and the rule
// of three in budget.go). Documents are random mixes of Markdown's syntax.
func TestMeteredIsGoldmark(t *testing.T) {
	t.Parallel()
	r := New()
	plain := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAutoHeadingID()))
	tokens := []string{"*", "_", "**", "__", "***", "[", "]", "(", ")", "](", "![", "`", "``", "<", ">", "> ", " ", " ",
		"\n", "\n\n", "a", "foo", "~", "~~", "|", "- ", "!", "\\", "# ", "1. ", "http://x.y", "www.a.b", "a@b.co",
		"\"", "'", "&amp;", "\t", "    ", "[a]: /u", "[a]", "[a][]", "<b>", "</b>", "<!--", "-->", "|---|",
		"| a | b |\n|---|---|\n", "[ ] ", "[x] ", "* ", "+ ", "---", "```", "a\\|b", "=\n"}
	docs := []string{
		"*foo**bar*", "*foo**bar**baz*", "foo***bar***baz", "a**b" + strings.Repeat("c* ", 10),
		"*a **b** c*", "_foo_bar_baz_", "**foo*bar*baz**", "[link *foo **bar** `#`*](/uri)",
		"[![moon](moon.jpg)](/uri)", "*[foo*](/uri)", "[foo]: /url \"title\"\n\n[foo]",
		"| a | `b \\| c` |\n|---|---|\n| `\\|` | d |", "> - a\n>   - b\n> c", "- [ ] a\n- [x] b",
	}
	rnd := rand.New(rand.NewSource(1))
	for range 3000 {
		var b strings.Builder
		for range rnd.Intn(60) {
			b.WriteString(tokens[rnd.Intn(len(tokens))])
		}
		docs = append(docs, b.String())
	}
	for _, doc := range docs {
		var want bytes.Buffer
		if err := plain.Convert([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		got, err := r.convert([]byte(doc))
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if got != want.String() {
			t.Errorf("%q renders\n%q\nwant goldmark's\n%q", doc, got, want.String())
		}
	}
}
