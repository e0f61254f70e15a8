package readdb

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// The read cache's view of SQL (cache.go): which tables a read names and
// which table a write writes. Neither parses SQL in full. A read depends on
// every word of its text that could be a table (more than it needs is only
// a dropped answer now and then); a write is understood only in the plain
// forms the projection writes in, and anything else moves every answer on.

// implied are the tables a write to a table changes besides it: the
// schema's triggers and cascading foreign keys, closed under themselves (a
// cascade's own cascades are named too). TestImpliedTables checks them
// against the SQLite schema.
var implied = map[string][]string{
	"notifications":    {"notification_counts"},
	"forge_issues":     {"forge_issue_counts"},
	"forge_comments":   {"forge_comment_counts"},
	"forum_topics":     {"forum_topic_counts"},
	"forge_activity":   {"forge_activity_counts", "forge_activity_repo_counts"},
	"users":            {"access_tokens", "conversation_members", "conversations", "direct_messages", "notification_preferences", "recovery_codes", "sessions", "twofactor_challenges", "user_blocks", "user_totp"},
	"conversations":    {"conversation_members", "direct_messages"},
	"contact_messages": {"ticket_replies"},
}

// scopedCounters are implied tables whose trigger writes stay within the
// scope of the write that fired them, as far as scoped reads can tell:
// forge_comment_counts holds an issue's counter, in the scope,
// and its repository's total (number 0), which only reads in no scope
// read, and those depend on the table's generation, which every write
// moves. So a comment drops the cached pages of its own thread only, as
// it did when their totals were counted over forge_comments in scope.
// notification_counts holds a user's counters, moved only by writes of
// that user's threads.
var scopedCounters = map[string]bool{"forge_comment_counts": true, "notification_counts": true}

// words holds sqlWords' answers by SQL text: the texts are the
// projection's own, with placeholders for every value, so they are few;
// past maxWords texts the rest are split on every read.
var words byText[[]string]

// byText keeps a function's answers by SQL text, at most maxWords of them.
type byText[T any] struct {
	m sync.Map
	n atomic.Int64
}

// get is compute(q), computed once per text while there is room.
func (c *byText[T]) get(q string, compute func(string) T) T {
	if v, ok := c.m.Load(q); ok {
		return v.(T)
	}
	v := compute(q)
	if c.n.Load() < maxWords {
		if _, loaded := c.m.LoadOrStore(q, v); !loaded {
			c.n.Add(1)
		}
	}
	return v
}

const maxWords = 4096

// hotColumns are columns that nearly every block writes and that most
// reads of their table never look at: an account's balances and nonce
// (every transaction moves its sender's), and the projected height. Every
// name shown joins chain_accounts and reads the naming rule in
// chain_index, so without this no answer that shows a name would outlive
// a block. A write that sets only hot columns moves the table's hot part
// (table + hotPart), not the table; a read depends on the hot part too
// when its text names one of the hot columns or has a * other than
// COUNT(*)'s. A read of a hot column always names it: the projection's
// reads list their columns, and * is taken to read them all.
var hotColumns = map[string]map[string]bool{
	"chain_accounts": {"balance": true, "staked": true, "unbonding": true, "nonce": true},
	"chain_index":    {"height": true},
}

// hotPart names the hot columns of a table as the read cache tracks them.
const hotPart = "#hot"

// sqlWords are the words of q that could name a table: its identifiers,
// lower case, without SQL's keywords, and the hot part of a table whose
// hot columns q may read (hotColumns).
func sqlWords(q string) []string { return words.get(q, splitWords) }

func splitWords(q string) []string {
	seen := map[string]bool{}
	var out []string
	ts := tokens(q)
	for _, t := range ts {
		if !isIdent(t) || keywords[t] || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	star := hasStar(ts)
	var aliases map[string][]string
	for table, cols := range hotColumns {
		if !seen[table] {
			continue
		}
		if aliases == nil {
			aliases = aliasesOf(ts)
		}
		if star || namesColumnOf(ts, table, cols, aliases) {
			out = append(out, table+hotPart)
		}
	}
	return out
}

// namesColumnOf tells whether ts name one of table's columns cols: bare,
// qualified by the table's name, or by a name aliases give it. A name
// qualified by a name aliases do not know (a subquery's) may be table's.
// So c.height, where c is forge_comments, is not chain_index's height.
func namesColumnOf(ts []string, table string, cols map[string]bool, aliases map[string][]string) bool {
	for k, t := range ts {
		if !cols[t] {
			continue
		}
		if k < 2 || ts[k-1] != "." {
			return true
		}
		p := ts[k-2]
		if of, known := aliases[p]; p == table || !known || slices.Contains(of, table) {
			return true
		}
	}
	return false
}

// aliasesOf maps each name ts give a table (t x, t AS x) to the tables it
// is given to. A column's alias (c.height h) lands here too, harmlessly:
// no column is qualified by it.
func aliasesOf(ts []string) map[string][]string {
	m := map[string][]string{}
	for i := 0; i+1 < len(ts); i++ {
		if !isIdent(ts[i]) || keywords[ts[i]] {
			continue
		}
		j := i + 1
		if ts[j] == "as" {
			j++
		}
		if j < len(ts) && isIdent(ts[j]) && !keywords[ts[j]] {
			m[ts[j]] = append(m[ts[j]], ts[i])
		}
	}
	return m
}

// hasStar reports whether tokens have a * that may stand for columns: any
// but COUNT(*)'s (a product is taken for one too).
func hasStar(ts []string) bool {
	for i, t := range ts {
		if t == "*" && !(i > 0 && ts[i-1] == "(" && i+1 < len(ts) && ts[i+1] == ")") {
			return true
		}
	}
	return false
}

// written holds writtenName's answers by SQL text, as words does
// sqlWords': the projection runs the same texts at every block, and
// splitting each again took a fifth of its write time (the profile of
// BenchmarkIssueWrites).
var written byText[writtenAnswer]

// writtenAnswer is one of writtenName's answers.
type writtenAnswer struct {
	name string
	ok   bool
}

// writtenName is what the write q changes for the read cache: its table,
// or only the table's hot part when q is an UPDATE that sets hot columns
// alone (hotColumns); "" for a read, false when q is not understood
// (writtenTable).
func writtenName(q string) (string, bool) {
	a := written.get(q, func(q string) writtenAnswer {
		name, ok := parseWrittenName(q)
		return writtenAnswer{name, ok}
	})
	return a.name, a.ok
}

func parseWrittenName(q string) (string, bool) {
	ts := tokens(q)
	table, ok := tableWritten(ts)
	if !ok || table == "" {
		return table, ok
	}
	if cols := hotColumns[table]; cols != nil {
		if set, ok := updatedColumns(ts); ok && len(set) > 0 && allIn(set, cols) {
			return table + hotPart, true
		}
	}
	return table, true
}

// updatedColumns are the columns an UPDATE's SET assigns, from its tokens;
// false when it is not a plain UPDATE t SET c = …, … (a FROM, a tuple
// assignment).
func updatedColumns(ts []string) ([]string, bool) {
	i := slices.Index(ts, "set")
	if len(ts) == 0 || ts[0] != "update" || i < 0 {
		return nil, false
	}
	var cols []string
	depth, start := 0, true
	for _, t := range ts[i+1:] {
		switch {
		case t == "(":
			if start {
				return nil, false // (a, b) = (…): not read here
			}
			depth++
		case t == ")":
			depth--
		case depth > 0:
		case t == "where" || t == "returning":
			return cols, true
		case t == "from":
			return nil, false
		case t == ",":
			start = true
		case start:
			if !isIdent(t) {
				return nil, false
			}
			cols = append(cols, t)
			start = false
		}
	}
	return cols, true
}

func allIn(names []string, set map[string]bool) bool {
	for _, n := range names {
		if !set[n] {
			return false
		}
	}
	return true
}

// writtenTable is the table the statement q writes: "" for a read, false
// when q is not one of the forms understood (INSERT [OR x] INTO t,
// REPLACE INTO t, UPDATE [OR x] t, DELETE FROM t, SELECT).
func writtenTable(q string) (string, bool) { return tableWritten(tokens(q)) }

// tableWritten is writtenTable of q's tokens.
func tableWritten(ts []string) (string, bool) {
	next := func() string {
		if len(ts) == 0 {
			return ""
		}
		t := ts[0]
		ts = ts[1:]
		return t
	}
	table := func() (string, bool) {
		t := next()
		if len(ts) > 0 && ts[0] == "." { // schema.table
			next()
			t = next()
		}
		return t, isIdent(t) && !keywords[t]
	}
	switch next() {
	case "select":
		return "", true
	case "insert":
		t := next()
		if t == "or" {
			next()
			t = next()
		}
		if t != "into" {
			return "", false
		}
		return table()
	case "replace":
		if next() != "into" {
			return "", false
		}
		return table()
	case "update":
		if len(ts) > 1 && ts[0] == "or" {
			next()
			next()
		}
		return table()
	case "delete":
		if next() != "from" {
			return "", false
		}
		return table()
	}
	return "", false
}

// tokens splits q into lower-case words and single punctuation marks,
// leaving out string literals, quoted names' quotes, comments and spaces.
func tokens(q string) []string {
	var out []string
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			for i < len(q) && q[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '\'':
			i++
			for i < len(q) {
				if q[i] == '\'' {
					if i+1 < len(q) && q[i+1] == '\'' {
						i += 2
						continue
					}
					break
				}
				i++
			}
			i++
			out = append(out, "'")
		case c == '"' || c == '`':
			end := strings.IndexByte(q[i+1:], c)
			if end < 0 {
				return out
			}
			out = append(out, strings.ToLower(q[i+1:i+1+end]))
			i += end + 2
		case isWordByte(c):
			j := i
			for j < len(q) && isWordByte(q[j]) {
				j++
			}
			out = append(out, strings.ToLower(q[i:j]))
			i = j
		default:
			out = append(out, q[i:i+1])
			i++
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// isIdent tells a name from a number, a placeholder's digits or a mark.
func isIdent(t string) bool {
	return t != "" && isWordByte(t[0]) && (t[0] < '0' || t[0] > '9')
}

// keywords are SQL words no table of the projection is called.
var keywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`select from where and or not null is in as on join left right inner outer cross
		using order by asc desc limit offset group having distinct case when then else end exists between like
		ilike escape union all except intersect insert into values update set delete replace conflict do nothing
		returning with recursive over partition count sum min max avg coalesce cast integer bigint text boolean
		true false lower upper length substr substring instr nulls first last filter row_number rank window
		collate nocase ifnull nullif abs round glob iif any some`) {
		m[w] = true
	}
	return m
}()
