package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Issue 11: {"type":"transfer"} relayed through the API. The type is the
// signed EIP-712 primaryType, so it stays case-sensitive, but the refusal
// says how it is spelled, and nothing reaches the chain.
func TestRelayedTypeInWrongCaseNamesTheSpelling(t *testing.T) {
	t.Parallel()
	alice, bob := newSigner(), newSigner()
	n := startChainNode(t, ledger.Allocation{Address: alice.addr, Amount: 1_000_000})
	msg := map[string]any{"from": alice.addr.Hex(), "to": bob.addr.Hex(), "amount": "5", "nonce": "0"}
	env, err := tx.Sign(alice.key, tx.KindTransfer, msg, n.chainID)
	if err != nil {
		t.Fatal(err)
	}
	env.Type = "transfer"
	body, _ := json.Marshal(env)
	res, err := http.Post(n.url+"/api/v1/chain/txs", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode < 400 || res.StatusCode > 499 || !strings.Contains(string(raw), "unknown_type") ||
		!strings.Contains(string(raw), `did you mean \"Transfer\"`) {
		t.Fatalf("a Transfer sent as type \"transfer\": %d %s, want a 4xx unknown_type naming Transfer", res.StatusCode, raw)
	}
	// The same transaction with its type spelled right goes through.
	n.send(t, alice, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": "5"})
}
