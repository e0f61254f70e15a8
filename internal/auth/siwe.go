package auth

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// Message is a Sign-In with Ethereum message (EIP-4361).
type Message struct {
	Scheme         string // optional; "" when the message starts with the domain
	Domain         string // RFC 3986 authority
	Address        common.Address
	Statement      string // optional
	URI            string
	Version        string
	ChainID        uint64
	Nonce          string
	IssuedAt       time.Time
	ExpirationTime time.Time // zero when absent
	NotBefore      time.Time // zero when absent
	RequestID      *string   // nil when absent (it may be present and empty)
	Resources      []string
}

// ParseError says where a message departs from the EIP-4361 grammar.
type ParseError struct {
	Line   int // 1-based
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

const preambleSuffix = " wants you to sign in with your Ethereum account:"

// ParseMessage parses msg strictly against the EIP-4361 ABNF:
//
//	[ scheme "://" ] domain " wants you to sign in with your Ethereum account:" LF
//	address LF
//	LF
//	[ statement LF ]
//	LF
//	"URI: " uri LF
//	"Version: " version LF
//	"Chain ID: " chain-id LF
//	"Nonce: " nonce LF
//	"Issued At: " issued-at
//	[ LF "Expiration Time: " expiration-time ]
//	[ LF "Not Before: " not-before ]
//	[ LF "Request ID: " request-id ]
//	[ LF "Resources:" *( LF "- " URI ) ]
//
// Lines end in LF only and the message does not end with one.
func ParseMessage(msg string) (*Message, error) {
	if cr := strings.IndexByte(msg, '\r'); cr >= 0 {
		return nil, &ParseError{Line: 1 + strings.Count(msg[:cr], "\n"), Reason: "lines must end in LF alone, without CR"}
	}
	p := &lineParser{lines: strings.Split(msg, "\n")}
	m := &Message{}
	steps := []func(*Message) error{p.preamble, p.address, p.statement, p.required, p.optional}
	for _, step := range steps {
		if err := step(m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

type lineParser struct {
	lines []string
	i     int // index of the next line
}

func (p *lineParser) fail(reason string, args ...any) error {
	return &ParseError{Line: p.i + 1, Reason: fmt.Sprintf(reason, args...)}
}

// next returns the next line, or ok false at the end of the message.
func (p *lineParser) next() (string, bool) {
	if p.i >= len(p.lines) {
		return "", false
	}
	p.i++
	return p.lines[p.i-1], true
}

func (p *lineParser) peek() (string, bool) {
	if p.i >= len(p.lines) {
		return "", false
	}
	return p.lines[p.i], true
}

func (p *lineParser) preamble(m *Message) error {
	line, _ := p.next()
	authority, ok := strings.CutSuffix(line, preambleSuffix)
	if !ok {
		p.i--
		return p.fail("the first line must end with %q", preambleSuffix)
	}
	if scheme, rest, found := strings.Cut(authority, "://"); found {
		if !isScheme(scheme) {
			p.i--
			return p.fail("%q is not a URI scheme", scheme)
		}
		m.Scheme, authority = scheme, rest
	}
	if !isAuthority(authority) {
		p.i--
		return p.fail("%q is not a domain (RFC 3986 authority)", authority)
	}
	m.Domain = authority
	return nil
}

func (p *lineParser) address(m *Message) error {
	line, ok := p.next()
	if !ok {
		return p.fail("the address is missing")
	}
	if len(line) != 42 || !strings.HasPrefix(line, "0x") || !isHex(line[2:]) {
		p.i--
		return p.fail("the address must be 0x and 40 hex digits")
	}
	addr := common.HexToAddress(line)
	if addr.Hex() != line {
		p.i--
		return p.fail("the address must use its EIP-55 checksum capitalization (%s)", addr.Hex())
	}
	m.Address = addr
	return p.blank()
}

func (p *lineParser) blank() error {
	line, ok := p.next()
	if !ok || line != "" {
		if ok {
			p.i--
		}
		return p.fail("an empty line is expected here")
	}
	return nil
}

// statement reads the optional statement and the empty line after it. With
// no statement there is one empty line before "URI: "; with one, the
// statement line and an empty line.
func (p *lineParser) statement(m *Message) error {
	line, ok := p.peek()
	if !ok {
		return p.fail("the message ends before its URI")
	}
	if line == "" {
		if after := p.i + 1; after < len(p.lines) && strings.HasPrefix(p.lines[after], "URI: ") {
			p.i++
			return nil
		}
	}
	if !isStatement(line) {
		return p.fail("the statement may hold only letters, digits, spaces and URI punctuation")
	}
	m.Statement = line
	p.i++
	return p.blank()
}

// field reads a line "<name>: <value>".
func (p *lineParser) field(name string) (string, error) {
	line, ok := p.next()
	if !ok {
		return "", p.fail("%q is missing", name+": ")
	}
	v, found := strings.CutPrefix(line, name+": ")
	if !found {
		p.i--
		return "", p.fail("expected %q", name+": ")
	}
	return v, nil
}

func (p *lineParser) required(m *Message) error {
	var err error
	if m.URI, err = p.field("URI"); err != nil {
		return err
	}
	if !isURI(m.URI) {
		p.i--
		return p.fail("%q is not a URI", m.URI)
	}
	if m.Version, err = p.field("Version"); err != nil {
		return err
	}
	if m.Version != "1" {
		p.i--
		return p.fail("the version must be 1")
	}
	chainID, err := p.field("Chain ID")
	if err != nil {
		return err
	}
	if m.ChainID, err = strconv.ParseUint(chainID, 10, 64); err != nil || !isDigits(chainID) {
		p.i--
		return p.fail("the chain id must be a decimal number")
	}
	if m.Nonce, err = p.field("Nonce"); err != nil {
		return err
	}
	if len(m.Nonce) < 8 || !isAlnum(m.Nonce) {
		p.i--
		return p.fail("the nonce must be at least 8 letters or digits")
	}
	m.IssuedAt, err = p.dateTime("Issued At")
	return err
}

func (p *lineParser) dateTime(name string) (time.Time, error) {
	v, err := p.field(name)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		p.i--
		return time.Time{}, p.fail("%s must be an RFC 3339 date-time", name)
	}
	return t, nil
}

// optional reads the optional fields, each at most once and in order.
func (p *lineParser) optional(m *Message) error {
	var err error
	if p.has("Expiration Time: ") {
		if m.ExpirationTime, err = p.dateTime("Expiration Time"); err != nil {
			return err
		}
	}
	if p.has("Not Before: ") {
		if m.NotBefore, err = p.dateTime("Not Before"); err != nil {
			return err
		}
	}
	if p.has("Request ID: ") {
		id, _ := p.field("Request ID")
		if !isPchars(id) {
			p.i--
			return p.fail("the request id may hold only URI path characters")
		}
		m.RequestID = &id
	}
	if p.has("Resources:") {
		if line, _ := p.next(); line != "Resources:" {
			p.i--
			return p.fail(`expected "Resources:" alone on its line`)
		}
		m.Resources = []string{}
		for p.has("- ") {
			r, _ := p.next()
			if !isURI(r[2:]) {
				p.i--
				return p.fail("resource %q is not a URI", r[2:])
			}
			m.Resources = append(m.Resources, r[2:])
		}
	}
	if line, ok := p.peek(); ok {
		if line == "" {
			return p.fail("the message must not end with an empty line")
		}
		return p.fail("unexpected line %q", truncate(line, 40))
	}
	return nil
}

func (p *lineParser) has(prefix string) bool {
	line, ok := p.peek()
	return ok && strings.HasPrefix(line, prefix)
}

// truncate cuts s to at most n bytes on a character boundary, adding "...".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// printable is what a client sent in a header (its User-Agent), made safe
// to store and show: invalid UTF-8 and control characters dropped (a NUL
// would make PostgreSQL refuse the row), at most n bytes.
func printable(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	return truncate(s, n)
}

// Character classes of RFC 3986 and RFC 5234.

const (
	alpha      = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digit      = "0123456789"
	hexDigit   = digit + "abcdefABCDEF"
	unreserved = alpha + digit + "-._~"
	genDelims  = ":/?#[]@"
	subDelims  = "!$&'()*+,;="
	reserved   = genDelims + subDelims
)

func only(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(set, rune(s[i])) {
			return false
		}
	}
	return true
}

func isHex(s string) bool    { return only(s, hexDigit) }
func isDigits(s string) bool { return s != "" && only(s, digit) }
func isAlnum(s string) bool  { return only(s, alpha+digit) }

// isStatement: *( reserved / unreserved / " " ).
func isStatement(s string) bool { return only(s, reserved+unreserved+" ") }

// isScheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
func isScheme(s string) bool {
	return s != "" && strings.ContainsRune(alpha, rune(s[0])) && only(s, alpha+digit+"+-.")
}

// pctOnly checks s holds only set and well-formed %HH escapes.
func pctOnly(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !isHex(s[i+1:i+3]) {
				return false
			}
			i += 2
			continue
		}
		if !strings.ContainsRune(set, rune(s[i])) {
			return false
		}
	}
	return true
}

// isPchars: *pchar, pchar = unreserved / pct-encoded / sub-delims / ":" / "@".
func isPchars(s string) bool { return pctOnly(s, unreserved+subDelims+":@") }

// isAuthority: [ userinfo "@" ] host [ ":" port ], host an IP literal,
// IPv4 address or registered name.
func isAuthority(s string) bool {
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		if !pctOnly(s[:at], unreserved+subDelims+":") {
			return false
		}
		s = s[at+1:]
	}
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || !strings.Contains(s[1:end], ":") || net.ParseIP(s[1:end]) == nil {
			return false
		}
		host, port = s[:end+1], s[end+1:]
		if port != "" && !strings.HasPrefix(port, ":") {
			return false
		}
		port = strings.TrimPrefix(port, ":")
	} else if i := strings.LastIndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i+1:]
		if !pctOnly(host, unreserved+subDelims) {
			return false
		}
	} else if !pctOnly(host, unreserved+subDelims) {
		return false
	}
	return host != "" && only(port, digit)
}

// isURI: an absolute RFC 3986 URI (scheme ":" hier-part [ "?" query ] [ "#" fragment ]).
func isURI(s string) bool {
	scheme, _, found := strings.Cut(s, ":")
	if !found || !isScheme(scheme) || !pctOnly(s, reserved+unreserved) || strings.Count(s, "#") > 1 {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme != ""
}

// recoverSigner returns the address whose key made an EIP-191 personal_sign
// signature (65 bytes r||s||v, v 27/28 or 0/1) over msg.
func recoverSigner(msg, signature string) (common.Address, error) {
	sig, err := hexutil.Decode(signature)
	if err != nil {
		return common.Address{}, fmt.Errorf("decode signature: %w", err)
	}
	if len(sig) != crypto.SignatureLength {
		return common.Address{}, fmt.Errorf("signature has %d bytes, want %d", len(sig), crypto.SignatureLength)
	}
	if sig[crypto.RecoveryIDOffset] >= 27 {
		sig[crypto.RecoveryIDOffset] -= 27
	}
	if sig[crypto.RecoveryIDOffset] > 1 {
		return common.Address{}, fmt.Errorf("signature recovery id %d is not 27, 28, 0 or 1", sig[crypto.RecoveryIDOffset])
	}
	pub, err := crypto.SigToPub(accounts.TextHash([]byte(msg)), sig)
	if err != nil {
		return common.Address{}, fmt.Errorf("recover signer: %w", err)
	}
	return crypto.PubkeyToAddress(*pub), nil
}

// Sign-in failures. Each names what went wrong and what to do about it.
var (
	errDomain     = unauthenticated("siwe_domain_mismatch", "This sign-in message was made for another site. Sign in again from this page.")
	errURI        = unauthenticated("siwe_uri_mismatch", "This sign-in message names another web address than this node's. Sign in again from this page.")
	errChain      = unauthenticated("siwe_chain_mismatch", "This sign-in message is for another chain. Switch your wallet to this node's chain and sign in again.")
	errExpired    = unauthenticated("siwe_expired", "This sign-in message has expired. Sign in again.")
	errNotYet     = unauthenticated("siwe_not_yet_valid", "This sign-in message is not valid yet. Check your device's clock and sign in again.")
	errSignature  = unauthenticated("siwe_bad_signature", "The signature does not match the sign-in message's address. Sign in again with the same account.")
	errNonceUsed  = unauthenticated("siwe_nonce_invalid", "This sign-in message was already used. Sign in again.")
	errNonceOld   = unauthenticated("siwe_nonce_invalid", "This sign-in request has expired. Sign in again.")
	errNonceUnkwn = unauthenticated("siwe_nonce_invalid", "This node did not issue this sign-in request. Sign in again.")
)

func errMessage(err error) error {
	return unauthenticated("siwe_invalid_message", "This is not a valid Sign-In with Ethereum message ("+err.Error()+"). Sign in again.")
}

// checkMessage checks what a message claims against the node's own
// origins and the clock; the nonce and signature are checked by the caller.
func (s *Service) checkMessage(ctx context.Context, m *Message, origins Origins, now time.Time) error {
	at, ok := origins.accepts(m.Scheme, m.Domain)
	if !ok {
		// A message for another domain is what a phishing page asks a
		// wallet to sign: the operator should see it.
		s.log.WarnContext(ctx, "sign-in refused: message for another domain", "claimed", m.Domain, "scheme", m.Scheme,
			"address", m.Address.Hex(), "accepted", origins.names())
		return errDomain
	}
	u, err := url.Parse(m.URI)
	if err != nil || !strings.EqualFold(u.Scheme, at.Scheme) || !strings.EqualFold(u.Host, at.Host) || u.User != nil {
		return errURI
	}
	if m.ChainID != s.chainID {
		return errChain
	}
	switch {
	case m.IssuedAt.After(now.Add(clockSkew)):
		return errNotYet
	case now.Sub(m.IssuedAt) > maxMessageAge:
		return errExpired
	case !m.ExpirationTime.IsZero() && !now.Before(m.ExpirationTime):
		return errExpired
	case !m.NotBefore.IsZero() && m.NotBefore.After(now.Add(clockSkew)):
		return errNotYet
	}
	return nil
}
