package tx_test

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/dforge/dforge/internal/chain/tx"
)

const chainID = 1337

// wallet is a client holding a key, signing the way MetaMask's
// eth_signTypedData_v4 does: EIP-712 digest of the published types and
// domain, secp256k1 signature, v as 27/28.
type wallet struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func newWallet(t testing.TB) wallet {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return wallet{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

func fixedWallet(t testing.TB) wallet {
	t.Helper()
	// A well-known test key; never holds anything.
	key, err := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	return wallet{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// sign signs message as primaryType for chain id, with v offset by vBase
// (27 as wallets send it, 0 as some libraries do).
func (w wallet) sign(t testing.TB, primaryType string, message map[string]any, id uint64, vBase byte) tx.Envelope {
	t.Helper()
	doc := apitypes.TypedData{Types: tx.Types(), PrimaryType: primaryType, Domain: tx.Domain(id), Message: message}
	hash, _, err := apitypes.TypedDataAndHash(doc)
	if err != nil {
		t.Fatalf("hash typed data: %v", err)
	}
	sig, err := crypto.Sign(hash, w.key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += vBase
	return tx.Envelope{Type: primaryType, Message: message, Signature: hexutil.Encode(sig)}
}

// A node registration's fields; the tx package only bounds them.
const (
	nodeURL    = "https://forge.example.org"
	nodePeerID = "12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA"
	nodeAddrs  = "/ip4/203.0.113.7/tcp/4101 /dns4/forge.example.org/tcp/4101"
)

var recipient = common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")

func transferMsg(from common.Address) map[string]any {
	return map[string]any{"from": from.Hex(), "to": recipient.Hex(), "amount": "1500000", "nonce": "7"}
}

func messageFor(kind tx.Kind, from common.Address) map[string]any {
	m := map[string]any{"from": from.Hex(), "amount": "250", "nonce": "3"}
	switch kind {
	case tx.KindClaimUsername:
		delete(m, "amount")
		m["username"] = "alice"
	case tx.KindTransfer:
		m["to"] = recipient.Hex()
	case tx.KindTip:
		m["to"] = recipient.Hex()
		m["target"] = "pr:alice/x#4"
	case tx.KindForge:
		delete(m, "amount")
		m["actor"] = recipient.Hex()
		m["action"] = "issue.create"
		m["payload"] = `{"repo":1,"title":"Crash on start"}`
	case tx.KindPropose:
		delete(m, "amount")
		m["proposalType"], m["title"], m["description"], m["payload"], m["deposit"] = "text", "Adopt a code of conduct", "See *the draft*.", "{}", "250"
	case tx.KindVote:
		delete(m, "amount")
		m["proposal"], m["option"] = "4", "yes"
	case tx.KindRegisterNode:
		delete(m, "amount")
		m["url"], m["peerId"], m["addrs"] = nodeURL, nodePeerID, nodeAddrs
	case tx.KindBountyFund:
		m["repo"], m["issue"], m["expiry"] = "7", "2", "100"
	case tx.KindBountyRefund:
		delete(m, "amount")
		m["repo"], m["issue"] = "7", "2"
	case tx.KindGrantApprove:
		delete(m, "amount")
		m["grant"], m["milestone"] = "4", "0"
	case tx.KindDelegate:
		delete(m, "amount")
		m["delegate"], m["scopes"], m["expiry"] = recipient.Hex(), "issue,repository", "1000"
	case tx.KindUndelegate:
		delete(m, "amount")
		m["account"], m["delegate"] = from.Hex(), recipient.Hex()
	}
	return m
}

// submit is what a relayed transaction goes through: bytes into the
// chain, bytes out, verified.
func submit(t testing.TB, env tx.Envelope, id uint64) (tx.Tx, error) {
	t.Helper()
	b, err := tx.Encode(env)
	if err != nil {
		return tx.Tx{}, err
	}
	decoded, err := tx.Decode(b)
	if err != nil {
		return tx.Tx{}, err
	}
	return tx.Verify(decoded, id)
}

func wantCode(t testing.TB, err error, code uint32) {
	t.Helper()
	var e *tx.Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v (%T), want *tx.Error with code %d", err, err, code)
	}
	if e.Code != code || e.Name != tx.CodeName(code) {
		t.Fatalf("got %d %s (%q), want %d %s", e.Code, e.Name, e.Message, code, tx.CodeName(code))
	}
	if e.Message == "" {
		t.Fatal("error has no message")
	}
}

func TestEveryKindRoundTrips(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	for _, kind := range tx.Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			msg := messageFor(kind, w.addr)
			got, err := submit(t, w.sign(t, string(kind), msg, chainID, 27), chainID)
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			want := tx.Tx{Kind: kind, From: w.addr, Amount: 250, Nonce: 3, Hash: got.Hash}
			if kind == tx.KindClaimUsername {
				want.Amount, want.Username = 0, "alice"
			}
			if kind == tx.KindForge {
				want.Amount, want.Actor, want.Action, want.Payload = 0, recipient, "issue.create", `{"repo":1,"title":"Crash on start"}`
			}
			if kind == tx.KindTransfer || kind == tx.KindTip {
				want.To = recipient
			}
			if kind == tx.KindPropose {
				want.Amount, want.ProposalType, want.Title, want.Description, want.Payload, want.Deposit = 0, "text", "Adopt a code of conduct", "See *the draft*.", "{}", 250
			}
			if kind == tx.KindVote {
				want.Amount, want.Proposal, want.Option = 0, 4, "yes"
			}
			if kind == tx.KindTip {
				want.Target = "pr:alice/x#4"
			}
			if kind == tx.KindRegisterNode {
				want.Amount, want.URL, want.PeerID, want.Addrs = 0, nodeURL, nodePeerID, nodeAddrs
			}
			if kind == tx.KindBountyFund {
				want.Repo, want.Issue, want.Expiry = 7, 2, 100
			}
			if kind == tx.KindBountyRefund {
				want.Amount, want.Repo, want.Issue = 0, 7, 2
			}
			if kind == tx.KindGrantApprove {
				want.Amount, want.Grant = 0, 4
			}
			if kind == tx.KindDelegate {
				want.Amount, want.Delegate, want.Scopes, want.Expiry = 0, recipient, "issue,repository", 1000
			}
			if kind == tx.KindUndelegate {
				want.Amount, want.Account, want.Delegate = 0, w.addr, recipient
			}
			if got != want {
				t.Fatalf("got %+v, want %+v", got, want)
			}
			if got.Hash == ([32]byte{}) {
				t.Fatal("empty hash")
			}
		})
	}
}

func TestRecoveryByteForms(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	for _, vBase := range []byte{0, 27} {
		if _, err := submit(t, w.sign(t, "Transfer", transferMsg(w.addr), chainID, vBase), chainID); err != nil {
			t.Errorf("v based at %d: %v", vBase, err)
		}
	}
}

func TestAddressesInAnyCaseComeBackChecksummed(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	msg := transferMsg(w.addr)
	msg["from"] = strings.ToLower(w.addr.Hex())
	msg["to"] = "0x" + strings.ToUpper(recipient.Hex()[2:])
	got, err := submit(t, w.sign(t, "Transfer", msg, chainID, 27), chainID)
	if err != nil {
		t.Fatal(err)
	}
	if got.From.Hex() != w.addr.Hex() || got.To.Hex() != "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" {
		t.Fatalf("got from %s to %s", got.From.Hex(), got.To.Hex())
	}
}

// A client may send amounts as JSON numbers; the bytes are written by hand
// here as a JavaScript client would send them.
func TestAmountsAsJSONNumbers(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	env := w.sign(t, "Transfer", transferMsg(w.addr), chainID, 27)
	raw := `{"type":"Transfer","message":{"from":"` + w.addr.Hex() + `","to":"` + recipient.Hex() +
		`","amount":1500000,"nonce":7},"signature":"` + env.Signature + `"}`
	decoded, err := tx.Decode([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tx.Verify(decoded, chainID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Amount != 1500000 || got.Nonce != 7 {
		t.Fatalf("got %+v", got)
	}
}

func TestVerifyRejects(t *testing.T) {
	t.Parallel()
	w, other := newWallet(t), newWallet(t)
	signed := func(msg map[string]any) tx.Envelope { return w.sign(t, "Transfer", msg, chainID, 27) }
	valid := func() tx.Envelope { return signed(transferMsg(w.addr)) }
	with := func(key string, v any) tx.Envelope {
		env := valid()
		env.Message[key] = v
		return env
	}
	cases := []struct {
		name  string
		env   tx.Envelope
		chain uint64
		code  uint32
	}{
		{"tampered amount", with("amount", "1500001"), chainID, tx.CodeWrongSigner},
		{"tampered recipient", with("to", w.addr.Hex()), chainID, tx.CodeWrongSigner},
		{"signed by another key", other.sign(t, "Transfer", transferMsg(w.addr), chainID, 27), chainID, tx.CodeWrongSigner},
		{"signed for another chain", valid(), chainID + 1, tx.CodeWrongSigner},
		{"missing field", func() tx.Envelope { e := valid(); delete(e.Message, "nonce"); return e }(), chainID, tx.CodeInvalidField},
		{"extra field", with("memo", "hi"), chainID, tx.CodeInvalidField},
		{"bad address", with("to", "0x1234"), chainID, tx.CodeInvalidField},
		{"address without 0x", with("to", recipient.Hex()[2:]), chainID, tx.CodeInvalidField},
		{"zero recipient", with("to", common.Address{}.Hex()), chainID, tx.CodeInvalidField},
		{"amount above uint64", with("amount", "18446744073709551616"), chainID, tx.CodeInvalidField},
		{"negative amount", with("amount", "-5"), chainID, tx.CodeInvalidField},
		{"fractional amount", with("amount", json.Number("1.5")), chainID, tx.CodeInvalidField},
		{"hex amount", with("amount", "0x10"), chainID, tx.CodeInvalidField},
		{"amount not a number", with("amount", true), chainID, tx.CodeInvalidField},
		{"nonce above uint64", with("nonce", "99999999999999999999"), chainID, tx.CodeInvalidField},
		{"amount zero", signed(map[string]any{"from": w.addr.Hex(), "to": recipient.Hex(), "amount": "0", "nonce": "7"}), chainID, tx.CodeNonPositiveAmount},
		{"unknown type", tx.Envelope{Type: "Mint", Message: transferMsg(w.addr), Signature: valid().Signature}, chainID, tx.CodeUnknownType},
		{"type in wrong case", tx.Envelope{Type: "transfer", Message: transferMsg(w.addr), Signature: valid().Signature}, chainID, tx.CodeUnknownType},
		{"signature not hex", func() tx.Envelope { e := valid(); e.Signature = "0xzz"; return e }(), chainID, tx.CodeBadSignature},
		{"signature short", func() tx.Envelope { e := valid(); e.Signature = e.Signature[:128]; return e }(), chainID, tx.CodeBadSignature},
		{"signature without 0x", func() tx.Envelope { e := valid(); e.Signature = e.Signature[2:]; return e }(), chainID, tx.CodeBadSignature},
		{"signature v 29", withV(valid(), 29), chainID, tx.CodeBadSignature},
		{"signature all zero", func() tx.Envelope { e := valid(); e.Signature = hexutil.Encode(make([]byte, 65)); return e }(), chainID, tx.CodeBadSignature},
		{"signature high s", highS(t, valid()), chainID, tx.CodeBadSignature},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := submit(t, c.env, c.chain)
			wantCode(t, err, c.code)
		})
	}
}

func TestTipTargetRejected(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	for _, target := range []string{"", "alice", "user:", "repo:alice", "issue:alice/x", "issue:alice/x#0", "pr:alice/x#04", "team:x", "user:al ice", strings.Repeat("a", 300)} {
		msg := messageFor(tx.KindTip, w.addr)
		msg["target"] = target
		_, err := submit(t, w.sign(t, "Tip", msg, chainID, 27), chainID)
		wantCode(t, err, tx.CodeInvalidField)
	}
}

func withV(env tx.Envelope, v byte) tx.Envelope {
	sig := hexutil.MustDecode(env.Signature)
	sig[64] = v
	env.Signature = hexutil.Encode(sig)
	return env
}

// highS turns a signature into its other valid form (s' = n - s, v
// flipped), which recovers the same key; the chain accepts only low s.
func highS(t testing.TB, env tx.Envelope) tx.Envelope {
	t.Helper()
	sig := hexutil.MustDecode(env.Signature)
	s := new(big.Int).SetBytes(sig[32:64])
	s.Sub(crypto.S256().Params().N, s)
	s.FillBytes(sig[32:64])
	sig[64] ^= 1 // 27 <-> 28
	env.Signature = hexutil.Encode(sig)
	return env
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	good, err := tx.Encode(w.sign(t, "Transfer", transferMsg(w.addr), chainID, 27))
	if err != nil {
		t.Fatal(err)
	}
	sig := string(good[bytes.LastIndex(good, []byte(`"0x`))+1 : len(good)-2])
	cases := []struct {
		name string
		in   string
		code uint32
	}{
		{"empty", "", tx.CodeInvalidEncoding},
		{"not json", "hello", tx.CodeInvalidEncoding},
		{"array", "[]", tx.CodeInvalidEncoding},
		{"trailing data", string(good) + "{}", tx.CodeInvalidEncoding},
		{"two values", string(good) + " " + string(good), tx.CodeInvalidEncoding},
		{"unknown top-level key", strings.Replace(string(good), `{"type"`, `{"memo":"x","type"`, 1), tx.CodeInvalidEncoding},
		{"key in other case", strings.Replace(string(good), `"type"`, `"Type"`, 1), tx.CodeInvalidEncoding},
		{"missing signature", `{"type":"Transfer","message":{}}`, tx.CodeInvalidEncoding},
		{"null message", `{"type":"Transfer","message":null,"signature":"` + sig + `"}`, tx.CodeInvalidEncoding},
		{"message not an object", `{"type":"Transfer","message":[1],"signature":"` + sig + `"}`, tx.CodeInvalidEncoding},
		{"type not a string", `{"type":1,"message":{},"signature":"` + sig + `"}`, tx.CodeInvalidEncoding},
		{"oversized", `{"type":"Tip","message":{"target":"` + strings.Repeat("a", tx.MaxTxBytes) + `"},"signature":""}`, tx.CodeTxTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tx.Decode([]byte(c.in))
			wantCode(t, err, c.code)
		})
	}
	if _, err := tx.Decode(append(good, " \n"...)); err != nil {
		t.Fatalf("trailing whitespace: %v", err)
	}
}

// A Forge transaction may be up to MaxForgeTxBytes; every other kind stays
// at MaxTxBytes, whatever its contents.
func TestSizeLimitsPerKind(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	forge := func(payloadLen int) tx.Envelope {
		msg := messageFor(tx.KindForge, w.addr)
		msg["payload"] = `{"body":"` + strings.Repeat("b", payloadLen) + `"}`
		env, err := tx.Sign(w.key, tx.KindForge, msg, chainID)
		if err != nil {
			t.Fatal(err)
		}
		return env
	}
	// 100 KiB: far above the value limit, well within the forge one.
	got, err := submit(t, forge(100<<10), chainID)
	if err != nil || got.Kind != tx.KindForge || len(got.Payload) < 100<<10 || got.Actor != recipient {
		t.Fatalf("a 100 KiB forge tx: %+v %v", got.Kind, err)
	}
	_, err = tx.Encode(forge(tx.MaxForgeTxBytes))
	wantCode(t, err, tx.CodeTxTooLarge)
	// Bytes over the forge limit are refused before they are parsed, and a
	// value kind is held to its own limit even when the bytes would fit the
	// forge one.
	big := `{"type":"Forge","message":{"payload":"` + strings.Repeat("a", tx.MaxForgeTxBytes) + `"},"signature":""}`
	_, err = tx.Decode([]byte(big))
	wantCode(t, err, tx.CodeTxTooLarge)
	tip := `{"type":"Tip","message":{"target":"` + strings.Repeat("a", 2*tx.MaxTxBytes) + `"},"signature":""}`
	_, err = tx.Decode([]byte(tip))
	wantCode(t, err, tx.CodeTxTooLarge)
	if tx.MaxBytes(tx.KindForge) != 256<<10 || tx.MaxBytes(tx.KindTransfer) != 4096 {
		t.Fatalf("limits %d and %d", tx.MaxBytes(tx.KindForge), tx.MaxBytes(tx.KindTransfer))
	}
}

func TestForgeFieldsRejected(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	for name, c := range map[string]struct {
		key string
		v   any
	}{
		"zero actor":          {"actor", common.Address{}.Hex()},
		"actor not address":   {"actor", "alice"},
		"empty action":        {"action", ""},
		"action upper case":   {"action", "Issue.Create"},
		"action with space":   {"action", "issue create"},
		"action too long":     {"action", strings.Repeat("a", tx.MaxActionLen+1)},
		"payload not string":  {"payload", map[string]any{"repo": 1}},
		"action not a string": {"action", 7},
	} {
		msg := messageFor(tx.KindForge, w.addr)
		msg[c.key] = c.v
		_, err := tx.Sign(w.key, tx.KindForge, msg, chainID)
		if err == nil {
			t.Errorf("%s: signed", name)
			continue
		}
		wantCode(t, err, tx.CodeInvalidField)
	}
}

func TestEncodeRejectsOversized(t *testing.T) {
	t.Parallel()
	env := tx.Envelope{Type: "Tip", Message: map[string]any{"target": strings.Repeat("a", tx.MaxTxBytes)}}
	_, err := tx.Encode(env)
	wantCode(t, err, tx.CodeTxTooLarge)
}

func TestEncodeIsCanonical(t *testing.T) {
	t.Parallel()
	env := tx.Envelope{Type: "Transfer", Message: map[string]any{"to": "0xb", "nonce": "1", "from": "0xa", "amount": "2"}, Signature: "0x01"}
	b, err := tx.Encode(env)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"Transfer","message":{"amount":"2","from":"0xa","nonce":"1","to":"0xb"},"signature":"0x01"}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

// The digest of a fixed Transfer, computed here byte by byte from the
// EIP-712 spec with keccak256 alone, and the digest and signature viem
// 2.57.20 (hashTypedData, privateKeyToAccount(...).signTypedData) gives for
// the same document. Verify must agree with both.
func TestKnownAnswerTransfer(t *testing.T) {
	t.Parallel()
	w := fixedWallet(t)
	const (
		viemDigest = "0xd8a8214b7a72485caaf6e9592b40947634614bb27c74eea71f0f6954635f7250"
		viemSig    = "0xcab1bf57997ccdf7335bfa68baf236731edb749d0a8a700dc84f8f125fdda5d40cf4e9748398dba54ebcbb47ae349a442d25c973e7b34d5f2041c638645bc5831c"
	)
	if w.addr.Hex() != "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23" {
		t.Fatalf("fixed key gives %s", w.addr.Hex())
	}
	word := func(b []byte) []byte { return common.LeftPadBytes(b, 32) }
	keccak := crypto.Keccak256
	domainSeparator := keccak(
		keccak([]byte("EIP712Domain(string name,string version,uint256 chainId)")),
		keccak([]byte("dForge")), keccak([]byte("1")), word(big.NewInt(1337).Bytes()))
	structHash := keccak(
		keccak([]byte("Transfer(address from,address to,uint256 amount,uint256 nonce)")),
		word(w.addr.Bytes()), word(recipient.Bytes()), word(big.NewInt(1500000).Bytes()), word(big.NewInt(7).Bytes()))
	stepByStep := hexutil.Encode(keccak([]byte{0x19, 0x01}, domainSeparator, structHash))
	if stepByStep != viemDigest {
		t.Fatalf("step-by-step digest %s differs from viem's %s", stepByStep, viemDigest)
	}

	env := tx.Envelope{Type: "Transfer", Message: transferMsg(w.addr), Signature: viemSig}
	got, err := submit(t, env, chainID)
	if err != nil {
		t.Fatalf("verify viem's signature: %v", err)
	}
	if hexutil.Encode(got.Hash[:]) != viemDigest {
		t.Fatalf("Verify digest %x, want %s", got.Hash, viemDigest)
	}
	// Signatures are deterministic (RFC 6979), so Sign must match viem too.
	signed, err := tx.Sign(w.key, tx.KindTransfer, transferMsg(w.addr), chainID)
	if err != nil {
		t.Fatal(err)
	}
	if signed.Signature != viemSig {
		t.Fatalf("Sign gave %s, viem %s", signed.Signature, viemSig)
	}
}

// viem's signature over a Tip, so the string member is checked against
// another implementation too.
func TestKnownAnswerTip(t *testing.T) {
	t.Parallel()
	w := fixedWallet(t)
	msg := transferMsg(w.addr)
	msg["target"] = "issue:alice/x#3"
	env := tx.Envelope{Type: "Tip", Message: msg, Signature: "0x3a8bdf3f24b41699d94c2d142b70d92a20dd712424c82d5aca2a228d5d19c220310450d3f47456e77cd2bba852428722367ef4cb758d94465ccd9de64a20cc7e1b"}
	got, err := submit(t, env, chainID)
	if err != nil {
		t.Fatal(err)
	}
	if want := "0xc3bfcfd2217f2cca998f64b39b6e0351559f880b11e5794839544e3030085183"; hexutil.Encode(got.Hash[:]) != want {
		t.Fatalf("digest %x, want %s", got.Hash, want)
	}
	if got.Target != "issue:alice/x#3" || got.Amount != 1500000 {
		t.Fatalf("got %+v", got)
	}
}

func TestSignProducesVerifiableCanonicalEnvelope(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	msg := map[string]any{"from": strings.ToLower(w.addr.Hex()), "amount": uint64(42), "nonce": 0}
	env, err := tx.Sign(w.key, tx.KindStake, msg, chainID)
	if err != nil {
		t.Fatal(err)
	}
	if env.Message["from"] != w.addr.Hex() || env.Message["amount"] != "42" || env.Message["nonce"] != "0" {
		t.Fatalf("message not canonical: %v", env.Message)
	}
	got, err := submit(t, env, chainID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != tx.KindStake || got.Amount != 42 || got.Nonce != 0 || got.From != w.addr {
		t.Fatalf("got %+v", got)
	}
	if _, err := tx.Sign(w.key, tx.KindStake, map[string]any{"from": w.addr.Hex(), "amount": "0", "nonce": "0"}, chainID); err == nil {
		t.Fatal("Sign accepted amount 0")
	}
}

// What GET /api/v1/chain/params publishes must be what viem and MetaMask
// take as-is: types as name/type lists and a numeric chainId.
func TestPublishedShapes(t *testing.T) {
	t.Parallel()
	types, err := json.Marshal(tx.Types())
	if err != nil {
		t.Fatal(err)
	}
	var parsed map[string][]map[string]string
	if err := json.Unmarshal(types, &parsed); err != nil {
		t.Fatal(err)
	}
	wantFields := map[string]string{
		"EIP712Domain":    "name:string version:string chainId:uint256",
		"Transfer":        "from:address to:address amount:uint256 nonce:uint256",
		"Tip":             "from:address to:address amount:uint256 target:string nonce:uint256",
		"Stake":           "from:address amount:uint256 nonce:uint256",
		"Unstake":         "from:address amount:uint256 nonce:uint256",
		"TreasuryDeposit": "from:address amount:uint256 nonce:uint256",
		"ClaimUsername":   "from:address username:string nonce:uint256",
		"Forge":           "from:address actor:address action:string payload:string nonce:uint256",
		"Propose":         "from:address proposalType:string title:string description:string payload:string deposit:uint256 nonce:uint256",
		"Vote":            "from:address proposal:uint256 option:string nonce:uint256",
		"RegisterNode":    "from:address url:string peerId:string addrs:string nonce:uint256",
		"BountyFund":      "from:address repo:uint256 issue:uint256 amount:uint256 expiry:uint256 nonce:uint256",
		"BountyRefund":    "from:address repo:uint256 issue:uint256 nonce:uint256",
		"GrantApprove":    "from:address grant:uint256 milestone:uint256 nonce:uint256",
		"Delegate":        "from:address delegate:address scopes:string expiry:uint256 nonce:uint256",
		"Undelegate":      "from:address account:address delegate:address nonce:uint256",
	}
	if len(parsed) != len(wantFields) {
		t.Fatalf("published %d types, want %d: %s", len(parsed), len(wantFields), types)
	}
	for name, want := range wantFields {
		var got []string
		for _, f := range parsed[name] {
			got = append(got, f["name"]+":"+f["type"])
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s = %v, want %s", name, got, want)
		}
	}
	domain, err := json.Marshal(tx.PublishedDomain(chainID))
	if err != nil {
		t.Fatal(err)
	}
	if string(domain) != `{"name":"dForge","version":"1","chainId":1337}` {
		t.Fatalf("domain %s", domain)
	}
	// Callers get their own copy; changing it must not change what Verify uses.
	tx.Types()["Transfer"][0].Name = "sender"
	if tx.Types()["Transfer"][0].Name != "from" {
		t.Fatal("Types shares its map")
	}
}

func TestParseTarget(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]tx.Target{
		"user:alice":         {Kind: tx.TargetUser, Owner: "alice"},
		"repo:alice/x":       {Kind: tx.TargetRepo, Owner: "alice", Repo: "x"},
		"issue:alice/x#3":    {Kind: tx.TargetIssue, Owner: "alice", Repo: "x", Number: 3},
		"pr:bob-1/my.repo#4": {Kind: tx.TargetPull, Owner: "bob-1", Repo: "my.repo", Number: 4},
	} {
		got, err := tx.ParseTarget(s)
		if err != nil || got != want || got.String() != s {
			t.Errorf("ParseTarget(%q) = %+v, %v (String %q)", s, got, err, got.String())
		}
	}
}

func TestChainIDString(t *testing.T) {
	t.Parallel()
	if s := tx.ChainIDString(1337); s != "dforge-1337" {
		t.Fatalf("got %q", s)
	}
	if id, err := tx.ParseChainID("dforge-1337"); err != nil || id != 1337 {
		t.Fatalf("got %d, %v", id, err)
	}
	for _, bad := range []string{"", "dforge-", "dforge-01", "dforge--1", "cosmos-1", "dforge-1x"} {
		if _, err := tx.ParseChainID(bad); err == nil {
			t.Errorf("ParseChainID(%q) accepted", bad)
		}
	}
}

func TestErrorsMatchByCode(t *testing.T) {
	t.Parallel()
	_, err := tx.Decode([]byte("nope"))
	if !errors.Is(err, &tx.Error{Code: tx.CodeInvalidEncoding}) {
		t.Fatalf("errors.Is by code failed for %v", err)
	}
	if errors.Is(err, &tx.Error{Code: tx.CodeBadNonce}) {
		t.Fatal("matched the wrong code")
	}
	ledger := tx.NewError(tx.CodeInsufficientFunds, "balance %d is less than %d", 1, 2)
	if ledger.Name != "insufficient_funds" || ledger.Error() != "insufficient_funds: balance 1 is less than 2" {
		t.Fatalf("got %+v", ledger)
	}
}

// FuzzDecodeVerify feeds arbitrary bytes to the path every transaction
// takes in CheckTx. Whatever comes in, the answer is a Tx or an *Error with
// one of our codes, never a panic; and what verifies once verifies again,
// the same, after re-encoding.
func FuzzDecodeVerify(f *testing.F) {
	w := fixedWallet(f)
	for _, kind := range tx.Kinds() {
		env := w.sign(f, string(kind), messageFor(kind, w.addr), chainID, 27)
		b, err := tx.Encode(env)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(bytes.Replace(b, []byte(`"250"`), []byte(`250`), 1))
		f.Add(bytes.Replace(b, []byte(`"250"`), []byte(`"0"`), 1))
		f.Add(bytes.Replace(b, []byte(`"3"`), []byte(`-3`), 1))
		f.Add(b[:len(b)-1])
		// Text no node's projection may see, in every text field: signed,
		// so only the text rules can refuse them.
		for _, field := range []string{"title", "description", "proposalType", "option", "username", "target", "payload", "url", "peerId", "addrs"} {
			if msg := messageFor(kind, w.addr); msg[field] != nil {
				base := msg[field].(string)
				for _, bad := range []string{"\x00", "\x01\x1b", "\n"} {
					msg[field] = base + bad
					if b, err := tx.Encode(w.sign(f, string(kind), msg, chainID, 27)); err == nil {
						f.Add(b)
						f.Add(bytes.Replace(b, []byte(`\u0000`), []byte("\xff"), 1))
					}
				}
			}
		}
	}
	for _, s := range []string{"", "{}", "null", "[]", `{"type":"Transfer","message":{},"signature":"0x"}`,
		`{"type":"Tip","message":{"from":"0x","to":1e400,"amount":[],"target":{},"nonce":null},"signature":"0x00"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		env, err := tx.Decode(b)
		if err != nil {
			wantKnown(t, err)
			return
		}
		got, err := tx.Verify(env, chainID)
		if err != nil {
			wantKnown(t, err)
			return
		}
		again, err := submit(t, env, chainID)
		if err != nil {
			wantKnown(t, err)
			if !errors.Is(err, &tx.Error{Code: tx.CodeTxTooLarge}) {
				t.Fatalf("verified once, then: %v", err)
			}
			return
		}
		if again != got {
			t.Fatalf("re-encoded tx verifies as %+v, first as %+v", again, got)
		}
		checkVerifiedText(t, got)
	})
}

// checkVerifiedText: a verified transaction carries no text the SQL
// projection could refuse, and its one-line fields are one line.
func checkVerifiedText(t *testing.T, got tx.Tx) {
	t.Helper()
	for _, line := range []string{got.Title, got.ProposalType, got.Option, got.Username, got.Target, got.Action, got.URL, got.PeerID, got.Addrs} {
		if err := tx.CheckLine("", line); err != nil {
			t.Fatalf("verified with the one-line text %q: %v", line, err)
		}
	}
	for _, body := range []string{got.Description, got.Payload} {
		if err := tx.CheckBody("", body); err != nil {
			t.Fatalf("verified with the text %q: %v", body, err)
		}
	}
}

func wantKnown(t *testing.T, err error) {
	t.Helper()
	var e *tx.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is %T, not *tx.Error", err, err)
	}
	if tx.CodeName(e.Code) == "" || e.Name != tx.CodeName(e.Code) || e.Message == "" {
		t.Fatalf("error %+v has an unknown code or no message", e)
	}
}
