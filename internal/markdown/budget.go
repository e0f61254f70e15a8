package markdown

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// goldmark (v1.8.7, the newest release) has inputs on which parsing is
// quadratic: each "](" scans the rest of its line for a destination, each
// nesting level of ">" or "- " rescans its line, code spans, link labels and
// emphasis delimiters rescan what follows or precedes them, and a table's
// header widens every short row below it. Rather than chase each pattern,
// every parser goldmark runs is wrapped so that what it reads is counted
// against a budget proportional to the input; a document that spends it is
// shown as plain text. The counts model goldmark's own scans (what a parser
// may read from a call), so ordinary Markdown never comes near the budget,
// and the pathological suite in pathological_test.go guards the model when
// goldmark is upgraded.

// errTooComplex stops a parse that spent its budget; Render recovers it.
var errTooComplex = errors.New("markdown is too complex to render")

// Cost units are roughly bytes read. A document may spend budgetPerByte
// units per byte of input plus budgetBase; ordinary documents spend a few
// units per byte.
const (
	budgetPerByte = 64
	budgetBase    = 1 << 20

	// Steps that cost goldmark more than a byte's read: trying an emphasis
	// opener, and moving to the next line of a block (a code span or title
	// allocates a node per line).
	costDelimiter = 4
	costLine      = 16
)

var meterKey = parser.NewContextKey()

// meter is one parse's budget and the per-block state its charges need.
type meter struct {
	left int

	block    ast.Node // the block whose inlines are being parsed
	inlines  int      // inline parser calls in block
	openers  []int    // inlines at each open link label in block
	escPipes int      // escaped pipes in code seen in tables so far
}

func newMeter(size int) *meter {
	return &meter{left: budgetPerByte*size + budgetBase}
}

func (m *meter) charge(n int) {
	m.left -= n
	if m.left < 0 {
		panic(errTooComplex)
	}
}

func meterOf(pc parser.Context) *meter {
	m, _ := pc.Get(meterKey).(*meter)
	return m
}

// meteredConfig returns cfg's parsers and transformers wrapped in meters,
// as options for parser.NewParser.
func meteredConfig(cfg *parser.Config) []parser.Option {
	var opts []parser.Option
	for name, value := range cfg.Options {
		opts = append(opts, parser.WithOption(name, value))
	}
	if cfg.EscapedSpace {
		opts = append(opts, parser.WithEscapedSpace())
	}
	var blocks, inlines, paragraphs []util.PrioritizedValue
	for _, v := range cfg.BlockParsers {
		blocks = append(blocks, util.Prioritized(&meteredBlock{v.Value.(parser.BlockParser)}, v.Priority))
	}
	for _, v := range cfg.InlineParsers {
		ip := v.Value.(parser.InlineParser)
		inlines = append(inlines, util.Prioritized(&meteredInline{ip, scanOf(ip)}, v.Priority))
	}
	for _, v := range cfg.ParagraphTransformers {
		pt := v.Value.(parser.ParagraphTransformer)
		paragraphs = append(paragraphs, util.Prioritized(&meteredParagraph{pt, paragraphCostOf(pt)}, v.Priority))
	}
	// AST transformers (tables' escaped pipes) are charged by tableCost.
	return append(opts,
		parser.WithBlockParsers(blocks...),
		parser.WithInlineParsers(inlines...),
		parser.WithParagraphTransformers(paragraphs...),
		parser.WithASTTransformers(cfg.ASTTransformers...))
}

// configRecorder is a parser.Parser that only collects the options that
// goldmark's extensions add, so they can be wrapped.
type configRecorder struct{ cfg *parser.Config }

func (c *configRecorder) AddOptions(opts ...parser.Option) {
	for _, o := range opts {
		o.SetParserOption(c.cfg)
	}
}

func (c *configRecorder) Parse(text.Reader, ...parser.ParseOption) ast.Node {
	panic("markdown: configRecorder does not parse")
}

// setOption passes options (such as automatic heading ids) to a wrapped
// parser that takes them.
func setOption(v any, name parser.OptionName, value any) {
	if so, ok := v.(parser.SetOptioner); ok {
		so.SetOption(name, value)
	}
}

// meteredBlock charges a block parser the rest of the line at each call:
// goldmark's block parsers (and the line offset goldmark computes for them)
// read at most the current line, once per nesting level.
type meteredBlock struct{ parser.BlockParser }

func (b *meteredBlock) SetOption(name parser.OptionName, value any) {
	setOption(b.BlockParser, name, value)
}

func chargeLine(reader text.Reader, pc parser.Context) {
	if m := meterOf(pc); m != nil {
		line, _ := reader.PeekLine()
		m.charge(len(line) + 1)
	}
}

func (b *meteredBlock) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	chargeLine(reader, pc)
	return b.BlockParser.Open(parent, reader, pc)
}

func (b *meteredBlock) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	chargeLine(reader, pc)
	return b.BlockParser.Continue(node, reader, pc)
}

// scan says how far an inline parser may read past its trigger on the line
// it peeks.
type scan int

const (
	scanLine scan = iota // to the end of the line (the default)
	scanWord             // to the next white space
	scanLink             // to the next white space, or the line from a '<'
)

// scanOf knows goldmark's inline parsers that read only the word at their
// trigger; any other parser is charged the whole line at each peek.
func scanOf(ip parser.InlineParser) scan {
	t := reflect.TypeOf(ip)
	switch t {
	case reflect.TypeOf(parser.NewLinkParser()):
		return scanLink // a destination in <...> may hold spaces
	case reflect.TypeOf(parser.NewEmphasisParser()), reflect.TypeOf(parser.NewAutoLinkParser()),
		reflect.TypeOf(parser.NewRawHTMLParser()), reflect.TypeOf(extension.NewStrikethroughParser()),
		reflect.TypeOf(extension.NewLinkifyParser()), reflect.TypeOf(extension.NewTaskCheckBoxParser()):
		// Raw HTML reads tags through Match (charged per rune) and
		// remembers where comments failed, so a word is its own cost.
		return scanWord
	}
	return scanLine
}

// meteredInline wraps an inline parser: it reads its block through a
// meteredReader, the link parser pays for the nodes it searches when a
// label closes, and emphasis delimiters that can never match are not
// queued (goldmark's delimiter walk is quadratic in them).
type meteredInline struct {
	parser.InlineParser
	scan scan
}

func (p *meteredInline) SetOption(name parser.OptionName, value any) {
	setOption(p.InlineParser, name, value)
}

func (p *meteredInline) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := p.InlineParser.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

func (p *meteredInline) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	m := meterOf(pc)
	if m == nil {
		return p.InlineParser.Parse(parent, block, pc)
	}
	if m.block != parent {
		m.block, m.inlines, m.openers = parent, 0, m.openers[:0]
	}
	m.inlines++
	m.charge(1)
	line, _ := block.PeekLine()
	if p.scan == scanLink && len(line) > 0 && line[0] == ']' && len(m.openers) > 0 {
		// Closing a label walks every node since its opener.
		last := m.openers[len(m.openers)-1]
		m.openers = m.openers[:len(m.openers)-1]
		m.charge(m.inlines - last)
	}
	n := p.InlineParser.Parse(parent, &meteredReader{Reader: block, m: m, scan: p.scan, block: parent}, pc)
	if n == nil {
		return nil
	}
	if p.scan == scanLink && len(line) > 0 && (line[0] == '[' || line[0] == '!') && n.Kind() != ast.KindLink && n.Kind() != ast.KindImage {
		m.openers = append(m.openers, m.inlines)
	}
	if d, ok := n.(*parser.Delimiter); ok {
		return settle(d, pc, m)
	}
	return n
}

// settle turns a delimiter that can neither open nor close into text at
// once (goldmark would do so at the end of the block, after walking past it
// for every closer), and meters the matching of the others.
func settle(d *parser.Delimiter, pc parser.Context, m *meter) ast.Node {
	if d.CanOpen || d.CanClose {
		d.Processor = &meteredProcessor{d.Processor, m}
		return d
	}
	holder := ast.NewParagraph()
	holder.AppendChild(holder, d)
	pc.RemoveDelimiter(d) // replaces d in holder with its text
	t := holder.FirstChild()
	holder.RemoveChild(holder, t)
	return t
}

// meteredProcessor charges each opener goldmark tries for a closer. It also
// refuses an opener that the rule of three would make consume nothing: for
// goldmark that still marks the closer as maybe matched, so an unmatched
// closer stays on the list and every later closer walks past it again
// (CommonMark removes it; the output is the same).
type meteredProcessor struct {
	parser.DelimiterProcessor
	m *meter
}

func (p *meteredProcessor) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	p.m.charge(costDelimiter)
	return p.DelimiterProcessor.CanOpenCloser(opener, closer) && opener.CalcComsumption(closer) > 0
}

// meteredReader is the block reader an inline parser sees: it charges what
// each call may read.
type meteredReader struct {
	text.Reader
	m     *meter
	scan  scan
	block ast.Node
}

func (r *meteredReader) PeekLine() ([]byte, text.Segment) {
	line, seg := r.Reader.PeekLine()
	n := len(line)
	switch {
	case r.scan == scanLine, r.scan == scanLink && n > 0 && line[0] == '<':
	default:
		if i := bytes.IndexAny(line, " \t\r\n"); i >= 0 {
			n = i
		}
	}
	r.m.charge(n + 1)
	return line, seg
}

func (r *meteredReader) Value(seg text.Segment) []byte {
	r.m.charge(seg.Len() + 1)
	return r.Reader.Value(seg)
}

func (r *meteredReader) ReadRune() (rune, int, error) {
	r.m.charge(1)
	return r.Reader.ReadRune()
}

func (r *meteredReader) LineOffset() int {
	line, _ := r.Reader.PeekLine()
	r.m.charge(len(line) + 1)
	return r.Reader.LineOffset()
}

func (r *meteredReader) AdvanceLine() {
	r.m.charge(costLine)
	r.Reader.AdvanceLine()
}

func (r *meteredReader) SkipSpaces() (text.Segment, int, bool) {
	seg, n, ok := r.Reader.SkipSpaces()
	r.m.charge(n + 1)
	return seg, n, ok
}

func (r *meteredReader) SkipBlankLines() (text.Segment, int, bool) {
	seg, n, ok := r.Reader.SkipBlankLines()
	r.m.charge(n + 1)
	return seg, n, ok
}

// Match runs the expression over this reader, so each rune it reads is
// charged (goldmark's own Match would read past the meter).
func (r *meteredReader) Match(reg *regexp.Regexp) bool {
	line, pos := r.Reader.Position()
	match := reg.FindReaderSubmatchIndex(r)
	r.Reader.SetPosition(line, pos)
	if match == nil {
		return false
	}
	r.Reader.Advance(match[1] - match[0])
	return true
}

func (r *meteredReader) FindSubMatch(reg *regexp.Regexp) [][]byte {
	r.m.charge(r.rest()) // its expression reads past the meter
	return r.Reader.FindSubMatch(reg)
}

// FindClosure is charged what it passed over, or the rest of the block when
// it found nothing.
func (r *meteredReader) FindClosure(opener, closer byte, opts text.FindClosureOptions) (*text.Segments, bool) {
	line, _ := r.Reader.PeekLine()
	_, before := r.Reader.Position()
	segs, found := r.Reader.FindClosure(opener, closer, opts)
	if !found {
		r.m.charge(r.rest() + len(line) + 1)
		return segs, found
	}
	_, after := r.Reader.Position()
	r.m.charge(max(after.Start-before.Start, 0) + len(line) + 1)
	return segs, found
}

// rest is the length of the block from the current line on.
func (r *meteredReader) rest() int {
	line, _ := r.Reader.Position()
	lines := r.block.Lines()
	n := 1
	for i := max(line, 0); i < lines.Len(); i++ {
		seg := lines.At(i)
		n += seg.Len() + 1
	}
	return n
}

// meteredParagraph charges a paragraph transformer for the paragraph it
// reads, plus what the known transformers do beyond one pass.
type meteredParagraph struct {
	parser.ParagraphTransformer
	cost func(lines [][]byte, m *meter) int
}

func (p *meteredParagraph) SetOption(name parser.OptionName, value any) {
	setOption(p.ParagraphTransformer, name, value)
}

func (p *meteredParagraph) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if m := meterOf(pc); m != nil {
		segs := node.Lines()
		lines := make([][]byte, segs.Len())
		n := 1
		for i := range lines {
			seg := segs.At(i)
			lines[i] = seg.Value(reader.Source())
			n += len(lines[i]) + 1
		}
		m.charge(n)
		if p.cost != nil {
			m.charge(p.cost(lines, m))
		}
	}
	p.ParagraphTransformer.Transform(node, reader, pc)
}

func paragraphCostOf(pt parser.ParagraphTransformer) func([][]byte, *meter) int {
	switch reflect.TypeOf(pt) {
	case reflect.TypeOf(parser.LinkReferenceParagraphTransformer):
		return linkReferenceCost
	case reflect.TypeOf(extension.NewTableParagraphTransformer()):
		return tableCost
	}
	return nil
}

// linkReferenceCost: goldmark copies the rest of the paragraph's lines
// after each definition it takes out, so d definitions in l lines cost d*l
// (a cheap copy, hence the eighth).
func linkReferenceCost(lines [][]byte, _ *meter) int {
	defs := 0
	for _, line := range lines {
		if t := bytes.TrimLeft(line, " "); len(t) > 0 && t[0] == '[' {
			defs++
		}
	}
	return defs * len(lines) / 8
}

// tableCost: every row of a table gets as many cells as its delimiter row
// has columns, and goldmark's table AST transformer compares each escaped
// pipe in code with every other one in the document.
func tableCost(lines [][]byte, m *meter) int {
	if len(lines) < 2 {
		return 0
	}
	widest, esc := 0, 0
	for _, line := range lines {
		widest = max(widest, bytes.Count(line, []byte{'|'})+1)
		if bytes.IndexByte(line, '`') >= 0 {
			esc += bytes.Count(line, []byte(`\|`))
		}
	}
	m.escPipes += esc
	return widest*len(lines) + esc*m.escPipes
}
