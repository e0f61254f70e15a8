package readdb

import (
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
	"users":            {"access_tokens", "conversation_members", "conversations", "direct_messages", "notification_preferences", "recovery_codes", "sessions", "twofactor_challenges", "user_blocks", "user_totp"},
	"conversations":    {"conversation_members", "direct_messages"},
	"contact_messages": {"ticket_replies"},
}

// words holds sqlWords' answers by SQL text: the texts are the
// projection's own, with placeholders for every value, so they are few;
// past maxWords texts the rest are split on every read.
var (
	words    sync.Map
	wordsLen atomic.Int64
)

const maxWords = 4096

// sqlWords are the words of q that could name a table: its identifiers,
// lower case, without SQL's keywords.
func sqlWords(q string) []string {
	if w, ok := words.Load(q); ok {
		return w.([]string)
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range tokens(q) {
		if !isIdent(t) || keywords[t] || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	if wordsLen.Add(1) <= maxWords {
		words.Store(q, out)
	}
	return out
}

// writtenTable is the table the statement q writes: "" for a read, false
// when q is not one of the forms understood (INSERT [OR x] INTO t,
// REPLACE INTO t, UPDATE [OR x] t, DELETE FROM t, SELECT).
func writtenTable(q string) (string, bool) {
	ts := tokens(q)
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
