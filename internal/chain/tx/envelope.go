package tx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"slices"
	"unicode/utf8"
)

// MaxTxBytes is the largest encoded value transaction (every kind but
// Forge) the chain accepts. They are a few hundred bytes; the cap keeps a
// block's worth of junk cheap to reject.
const MaxTxBytes = 4096

// MaxForgeTxBytes is the largest encoded Forge transaction: an issue or
// review body with inline comments is far larger than a transfer.
const MaxForgeTxBytes = 256 << 10

// MaxProposeTxBytes is the largest encoded Propose transaction: its
// Markdown description may be 20,000 characters.
const MaxProposeTxBytes = 128 << 10

// MaxSignedTxBytes is the largest transaction a wallet signs (POST
// /api/v1/chain/txs); Forge transactions are relayed by operators only.
const MaxSignedTxBytes = MaxProposeTxBytes

// MaxBytes is the size limit of an encoded transaction of kind k; unknown
// kinds get the value limit.
func MaxBytes(k Kind) int {
	switch k {
	case KindForge:
		return MaxForgeTxBytes
	case KindPropose:
		return MaxProposeTxBytes
	}
	return MaxTxBytes
}

// Envelope is a signed transaction as a client sends it and as it is
// carried in a block: the EIP-712 primary type, the message exactly as the
// wallet signed it (addresses as hex strings, amounts as decimal strings or
// JSON numbers) and the 65-byte signature in 0x-hex.
type Envelope struct {
	Type      string         `json:"type"`
	Message   map[string]any `json:"message"`
	Signature string         `json:"signature"`
}

var envelopeKeys = []string{"type", "message", "signature"}

// Encode is the transaction bytes for CometBFT: compact JSON, message keys
// sorted, so an envelope always encodes to the same bytes.
func Encode(env Envelope) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // targets may hold '&'; no HTML will ever read these bytes
	if err := enc.Encode(env); err != nil {
		return nil, NewError(CodeInvalidEncoding, "encode transaction: %v", err)
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if limit := MaxBytes(Kind(env.Type)); len(b) > limit {
		return nil, tooLarge(len(b), limit)
	}
	return b, nil
}

// Decode reads transaction bytes strictly: one JSON object with exactly
// the keys type, message and signature (matched case-sensitively, unlike
// encoding/json's struct decoding), nothing after it, at most MaxBytes of
// its type (so no more than MaxForgeTxBytes is ever parsed).
// Numbers in the message stay json.Number so no precision is lost.
func Decode(b []byte) (Envelope, error) {
	if len(b) > MaxForgeTxBytes {
		return Envelope{}, tooLarge(len(b), MaxForgeTxBytes)
	}
	// JSON decoding would turn invalid UTF-8 into U+FFFD, quietly changing
	// the text that was sent; refuse it instead.
	if !utf8.Valid(b) {
		return Envelope{}, NewError(CodeInvalidText, "the transaction is not valid UTF-8")
	}
	var raw map[string]json.RawMessage
	if err := decodeOne(b, &raw); err != nil {
		return Envelope{}, badEncoding("the transaction is not a JSON object: %v", err)
	}
	if err := checkEnvelopeKeys(raw); err != nil {
		return Envelope{}, err
	}
	var env Envelope
	for _, step := range []struct {
		key string
		dst any
	}{{"type", &env.Type}, {"message", &env.Message}, {"signature", &env.Signature}} {
		if err := decodeValue(step.key, raw[step.key], step.dst); err != nil {
			return Envelope{}, err
		}
	}
	if limit := MaxBytes(Kind(env.Type)); len(b) > limit {
		return Envelope{}, tooLarge(len(b), limit)
	}
	return env, nil
}

func checkEnvelopeKeys(raw map[string]json.RawMessage) error {
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		if !slices.Contains(envelopeKeys, key) {
			return badEncoding("unexpected key %q; a transaction has only type, message and signature", key)
		}
	}
	for _, key := range envelopeKeys {
		if _, ok := raw[key]; !ok {
			return badEncoding("missing key %q", key)
		}
	}
	return nil
}

// decodeValue decodes one envelope value, refusing null, which
// encoding/json would silently turn into "" or a nil map.
func decodeValue(key string, raw json.RawMessage, dst any) error {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return badEncoding("%q must not be null", key)
	}
	if err := decodeOne(raw, dst); err != nil {
		return badEncoding("read %q: %v", key, err)
	}
	return nil
}

// decodeOne decodes exactly one JSON value and fails on anything after it.
func decodeOne(b []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

func badEncoding(format string, args ...any) *Error {
	return NewError(CodeInvalidEncoding, format, args...)
}

func tooLarge(n, limit int) *Error {
	return NewError(CodeTxTooLarge, "the transaction is %d bytes; the most is %d", n, limit)
}
