package tx_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Issue 11: a type in the wrong case stays unknown (it is the signed
// primaryType), and the message names the right spelling.
func TestTypeInWrongCaseNamesTheSpelling(t *testing.T) {
	t.Parallel()
	w := newWallet(t)
	for _, c := range []struct{ sent, want string }{{"transfer", "Transfer"}, {"TRANSFER", "Transfer"}, {"claimusername", "ClaimUsername"}} {
		// Signed over the registered type, sent with another spelling...
		env := w.sign(t, "Transfer", transferMsg(w.addr), chainID, 27)
		env.Type = c.sent
		_, err := submit(t, env, chainID)
		wantCode(t, err, tx.CodeUnknownType)
		var e *tx.Error
		if errors.As(err, &e) && !strings.Contains(e.Message, `did you mean "`+c.want+`"`) {
			t.Errorf("%s: message %q does not name %s", c.sent, e.Message, c.want)
		}
		// ...and a Go client asking to sign the wrong spelling.
		_, err = tx.Sign(w.key, tx.Kind(c.sent), transferMsg(w.addr), chainID)
		wantCode(t, err, tx.CodeUnknownType)
		if errors.As(err, &e) && !strings.Contains(e.Message, `did you mean "`+c.want+`"`) {
			t.Errorf("sign %s: message %q does not name %s", c.sent, e.Message, c.want)
		}
	}
	_, err := submit(t, tx.Envelope{Type: "Mint", Message: transferMsg(w.addr), Signature: w.sign(t, "Transfer", transferMsg(w.addr), chainID, 27).Signature}, chainID)
	var e *tx.Error
	if !errors.As(err, &e) || !strings.Contains(e.Message, "known types are") {
		t.Errorf("an unknown type lists the known ones: %v", err)
	}
	if k, ok := tx.FoldKind("transfer"); !ok || k != tx.KindTransfer {
		t.Errorf("FoldKind(transfer) = %q, %v", k, ok)
	}
	if _, ok := tx.FoldKind("Mint"); ok {
		t.Error("FoldKind(Mint) found a type")
	}
}
