package tx_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/tx"
)

func TestCheckLineAndBody(t *testing.T) {
	for _, c := range []struct {
		s          string
		line, body bool // accepted by CheckLine, by CheckBody
	}{
		{"plain text, ünïcödé, 漢字, 🙂", true, true},
		{"", true, true},
		{"\ufffd written as such", true, true},
		{"a\x00b", false, false},
		{"a\x01b", false, false},
		{"a\x1bb", false, false},
		{"a\x0bb", false, false},
		{"tab\there", false, true},
		{"two\nlines", false, true},
		{"crlf\r\n", false, true},
		{"del\x7f", false, true},
		{"c1\u0085", false, true},
		{"csi\u009b", false, true},
		{"nbsp\u00a0", true, true},
		{"bad \xff byte", false, false},
		{"truncated \xe2\x82", false, false},
		{"overlong \xc0\xaf", false, false},
		{"surrogate \xed\xa0\x80", false, false},
	} {
		if err := tx.CheckLine("f", c.s); (err == nil) != c.line || err != nil && !isText(err, "f") {
			t.Errorf("CheckLine(%q) = %v, want accepted %v", c.s, err, c.line)
		}
		if err := tx.CheckBody("f", c.s); (err == nil) != c.body || err != nil && !isText(err, "f") {
			t.Errorf("CheckBody(%q) = %v, want accepted %v", c.s, err, c.body)
		}
	}
}

func isText(err error, field string) bool {
	var te *tx.Error
	return errors.As(err, &te) && te.Code == tx.CodeInvalidText && te.Name == "invalid_text" && te.Field == field
}

// TestTextFieldsOfEveryKind signs transactions whose text fields hold
// control characters: Verify refuses them naming the field, before the
// signature is even looked at; a proposal's description, a body, keeps
// newlines and tabs.
func TestTextFieldsOfEveryKind(t *testing.T) {
	w := fixedWallet(t)
	for _, c := range []struct {
		kind  tx.Kind
		field string
		value string
	}{
		{tx.KindPropose, "title", "a\x00b"},
		{tx.KindPropose, "title", "two\nlines"},
		{tx.KindPropose, "description", "a\x00b"},
		{tx.KindPropose, "proposalType", "text\x00"},
		{tx.KindPropose, "payload", "{}\x00"},
		{tx.KindVote, "option", "yes\x00"},
		{tx.KindClaimUsername, "username", "al\x00ice"},
		{tx.KindTip, "target", "user:al\x00ice"},
		{tx.KindForge, "payload", `{"repo":1,"title":"a` + "\x00" + `"}`},
		{tx.KindRegisterNode, "url", "https://a\tb"},
		{tx.KindRegisterNode, "addrs", "/ip4/1.2.3.4/tcp/1\n/ip4/1.2.3.4/tcp/2"},
	} {
		msg := messageFor(c.kind, w.addr)
		msg[c.field] = c.value
		_, err := submit(t, w.sign(t, string(c.kind), msg, chainID, 27), chainID)
		if !isText(err, c.field) {
			t.Errorf("%s with %s %q: %v, want invalid_text naming %s", c.kind, c.field, c.value, err, c.field)
		}
	}
	msg := messageFor(tx.KindPropose, w.addr)
	msg["description"] = "## Why\n\n\tindented\r\n"
	if _, err := submit(t, w.sign(t, string(tx.KindPropose), msg, chainID, 27), chainID); err != nil {
		t.Fatalf("a description with newlines and tabs: %v", err)
	}
}

// TestEnvelopeInvalidUTF8: JSON decoding would turn the bytes into U+FFFD;
// the chain refuses them instead.
func TestEnvelopeInvalidUTF8(t *testing.T) {
	b := []byte(`{"type":"Transfer","message":{"from":"` + "\xff" + `"},"signature":"0x"}`)
	if _, err := tx.Decode(b); !errors.Is(err, &tx.Error{Code: tx.CodeInvalidText}) {
		t.Fatalf("Decode of invalid UTF-8: %v, want invalid_text", err)
	}
}

// TestEveryStringMemberRefusesNUL walks the registry (every type's EIP-712
// members) rather than a list: each string member of each type, set to its
// usual value with a NUL appended, is refused naming the member, so a type
// or a member added later cannot skip the text rules. The action member
// has a stricter rule of its own (lower-case letters and dots) and is
// refused as invalid_field.
func TestEveryStringMemberRefusesNUL(t *testing.T) {
	w := fixedWallet(t)
	types := tx.Types()
	checked := 0
	for _, kind := range tx.Kinds() {
		for _, member := range types[string(kind)] {
			if member.Type != "string" {
				continue
			}
			msg := messageFor(kind, w.addr)
			value, _ := msg[member.Name].(string)
			msg[member.Name] = value + "\x00"
			_, err := submit(t, w.sign(t, string(kind), msg, chainID, 27), chainID)
			var te *tx.Error
			switch {
			case member.Name == "action":
				if !errors.As(err, &te) || te.Code != tx.CodeInvalidField || !strings.Contains(te.Message, `"action"`) {
					t.Errorf("%s with a NUL in action: %v, want invalid_field naming action", kind, err)
				}
			case !isText(err, member.Name):
				t.Errorf("%s with a NUL in %s: %v, want invalid_text naming %s", kind, member.Name, err, member.Name)
			}
			checked++
		}
	}
	if checked < 12 {
		t.Fatalf("only %d string members found; the walk is broken", checked)
	}
}
