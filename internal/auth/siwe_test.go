package auth_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/auth"
)

// The EIP-4361 specification's example message.
const eipExample = `service.invalid wants you to sign in with your Ethereum account:
0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

I accept the ServiceOrg Terms of Service: https://service.invalid/tos

URI: https://service.invalid/login
Version: 1
Chain ID: 1
Nonce: 32891756
Issued At: 2021-09-30T16:25:24Z
Resources:
- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
- https://example.com/my-web2-claim.json`

func TestParseEIPExample(t *testing.T) {
	t.Parallel()
	m, err := auth.ParseMessage(eipExample)
	if err != nil {
		t.Fatal(err)
	}
	if m.Scheme != "" || m.Domain != "service.invalid" || m.Address.Hex() != "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2" ||
		m.Statement != "I accept the ServiceOrg Terms of Service: https://service.invalid/tos" ||
		m.URI != "https://service.invalid/login" || m.Version != "1" || m.ChainID != 1 || m.Nonce != "32891756" ||
		!m.IssuedAt.Equal(time.Date(2021, 9, 30, 16, 25, 24, 0, time.UTC)) || !m.ExpirationTime.IsZero() || m.RequestID != nil ||
		len(m.Resources) != 2 || m.Resources[1] != "https://example.com/my-web2-claim.json" {
		t.Fatalf("parsed = %+v", m)
	}
}

func TestParseEveryField(t *testing.T) {
	t.Parallel()
	msg := `https://service.invalid:8443 wants you to sign in with your Ethereum account:
0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

I accept the ServiceOrg Terms of Service: https://service.invalid/tos

URI: https://service.invalid:8443/login?next=%2Fhome
Version: 1
Chain ID: 7771
Nonce: a1b2c3d4e5f6a7b8
Issued At: 2021-09-30T16:25:24.000Z
Expiration Time: 2021-10-01T16:25:24+02:00
Not Before: 2021-09-30T16:20:00Z
Request ID: req-1:@!
Resources:`
	m, err := auth.ParseMessage(msg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Scheme != "https" || m.Domain != "service.invalid:8443" || m.ChainID != 7771 || m.RequestID == nil || *m.RequestID != "req-1:@!" ||
		!m.ExpirationTime.Equal(time.Date(2021, 10, 1, 14, 25, 24, 0, time.UTC)) || m.NotBefore.IsZero() || m.Resources == nil || len(m.Resources) != 0 {
		t.Fatalf("parsed = %+v", m)
	}
}

// Without a statement the grammar leaves two empty lines (viem's createSiweMessage writes this).
func TestParseWithoutStatement(t *testing.T) {
	t.Parallel()
	for name, msg := range map[string]string{
		"localhost":       "localhost:3000 wants you to sign in with your Ethereum account:\n0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n\nURI: http://localhost:3000\nVersion: 1\nChain ID: 7771\nNonce: 12345678\nIssued At: 2021-09-30T16:25:24Z",
		"ipv6":            "[::1]:3000 wants you to sign in with your Ethereum account:\n0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n\nURI: http://[::1]:3000/\nVersion: 1\nChain ID: 7771\nNonce: 12345678\nIssued At: 2021-09-30T16:25:24Z",
		"empty statement": "example.com wants you to sign in with your Ethereum account:\n0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n\n\nURI: https://example.com\nVersion: 1\nChain ID: 1\nNonce: 12345678\nIssued At: 2021-09-30T16:25:24Z",
	} {
		m, err := auth.ParseMessage(msg)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if m.Statement != "" || m.Nonce != "12345678" {
			t.Errorf("%s: parsed = %+v", name, m)
		}
	}
}

func TestParseRejectsMalformedMessages(t *testing.T) {
	t.Parallel()
	valid := strings.Split(eipExample, "\n")
	with := func(line int, text string) string {
		lines := append([]string(nil), valid...)
		lines[line] = text
		return strings.Join(lines, "\n")
	}
	cases := map[string]struct {
		msg  string
		line int
	}{
		"CRLF line ends":                {strings.ReplaceAll(eipExample, "\n", "\r\n"), 1},
		"trailing newline":              {eipExample + "\n", 14},
		"not a SIWE preamble":           {with(0, "service.invalid wants you to sign in:"), 1},
		"domain with a space":           {with(0, "service invalid wants you to sign in with your Ethereum account:"), 1},
		"bad scheme":                    {with(0, "1http://service.invalid wants you to sign in with your Ethereum account:"), 1},
		"lowercase address":             {with(1, "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2"), 2},
		"wrong checksum":                {with(1, "0xC02AAA39b223FE8D0A0e5C4F27eAD9083C756Cc2"), 2},
		"short address":                 {with(1, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756C"), 2},
		"missing empty line":            {with(2, "x"), 3},
		"non-ASCII statement":           {with(3, "Connexion à dForge"), 4},
		"quote in statement":            {with(3, `say "hi"`), 4},
		"no empty line after statement": {with(4, "more statement"), 5},
		"URI with a space":              {with(5, "URI: https://service.invalid/a b"), 6},
		"relative URI":                  {with(5, "URI: /login"), 6},
		"version 2":                     {with(6, "Version: 2"), 7},
		"hex chain id":                  {with(7, "Chain ID: 0x1"), 8},
		"chain id overflow":             {with(7, "Chain ID: 99999999999999999999999"), 8},
		"short nonce":                   {with(8, "Nonce: 1234567"), 9},
		"nonce with a dash":             {with(8, "Nonce: 1234-5678"), 9},
		"date without zone":             {with(9, "Issued At: 2021-09-30T16:25:24"), 10},
		"fields out of order":           {with(6, "Chain ID: 1"), 7},
		"unknown field":                 {with(10, "Audience: me"), 11},
		"resource not a URI":            {with(12, "- not a uri"), 13},
		"missing issued at":             {strings.Join(valid[:9], "\n"), 10},
		"not before then expiry":        {strings.Replace(eipExample, "Resources:", "Not Before: 2021-09-30T16:25:24Z\nExpiration Time: 2021-09-30T16:25:24Z\nResources:", 1), 12},
		"empty":                         {"", 1},
	}
	for name, c := range cases {
		_, err := auth.ParseMessage(c.msg)
		var pe *auth.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: err = %v, want a ParseError", name, err)
			continue
		}
		if pe.Line != c.line {
			t.Errorf("%s: error on line %d (%s), want line %d", name, pe.Line, pe.Reason, c.line)
		}
	}
}

// FuzzParseMessage: nothing a client sends may panic the parser, and what
// parses keeps the grammar's invariants.
func FuzzParseMessage(f *testing.F) {
	f.Add(eipExample)
	f.Add("localhost:3000 wants you to sign in with your Ethereum account:\n0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n\nURI: http://localhost:3000\nVersion: 1\nChain ID: 7771\nNonce: 12345678\nIssued At: 2021-09-30T16:25:24Z")
	f.Fuzz(func(t *testing.T, msg string) {
		m, err := auth.ParseMessage(msg)
		if err != nil {
			return
		}
		if strings.ContainsAny(m.Statement, "\n\r") || len(m.Nonce) < 8 || m.Version != "1" || m.IssuedAt.IsZero() {
			t.Fatalf("parsed %q into %+v", msg, m)
		}
	})
}
