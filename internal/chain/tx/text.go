package tx

import (
	"unicode/utf8"
)

// Text rules. Every string a transaction carries ends up in the SQL
// projection of every node. PostgreSQL refuses NUL and invalid UTF-8 in a
// text column, and a refused row stops the node's indexer at that block;
// so the chain refuses such text before it is ever in a block, and every
// node (on SQLite or PostgreSQL) projects the same rows. Other control
// characters are refused too: they have no printable form and can make
// one title look like another.

// CheckLine checks one line of text: a title, a name, a label, a
// description. It must be valid UTF-8 without control characters: no C0
// (tab and newline included: one line is one line), no DEL, and no C1
// (U+0080 to U+009F). C1 characters have no printable form, no UTF-8 text
// typed by a person has them (they come from text decoded with the wrong
// code page), and terminals read U+009B as the start of an escape
// sequence, so a name shown in a log or by git could move the cursor.
func CheckLine(field, s string) error {
	for i, r := range s {
		if r == utf8.RuneError && !validAt(s, i) {
			return textError(field, "is not valid UTF-8 (byte %d)", i)
		}
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			return textError(field, "has the control character U+%04X at byte %d; it must be one line of printable text", r, i)
		}
	}
	return nil
}

// CheckBody checks multi-line text, a Markdown body: valid UTF-8 whose
// only C0 control characters are tab, newline and carriage return. DEL
// and C1 stay allowed: a body is rendered escaped and may quote any text
// verbatim (a log, mis-decoded output in a bug report).
func CheckBody(field, s string) error {
	for i, r := range s {
		if r == utf8.RuneError && !validAt(s, i) {
			return textError(field, "is not valid UTF-8 (byte %d)", i)
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return textError(field, "has the control character U+%04X at byte %d; only tab, newline and carriage return may appear", r, i)
		}
	}
	return nil
}

// validAt tells a U+FFFD written in the text from an invalid byte, which
// ranging over a string also reports as utf8.RuneError.
func validAt(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size == 3
}

func textError(field, format string, args ...any) *Error {
	e := NewError(CodeInvalidText, "field %q "+format, append([]any{field}, args...)...)
	e.Field = field
	return e
}
