package ledger_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Each rule violation reaches clients with its stable code; anything else
// is not a rule violation and passes through unchanged.
func TestTxErrorCodes(t *testing.T) {
	for _, c := range []struct {
		err  error
		code uint32
	}{
		{fmt.Errorf("%w (got 1, want 0)", ledger.ErrBadNonce), tx.CodeBadNonce},
		{ledger.ErrInsufficientFunds, tx.CodeInsufficientFunds},
		{fmt.Errorf("%w: 1 staked", ledger.ErrInsufficientStake), tx.CodeInsufficientFunds},
		{ledger.ErrNonPositive, tx.CodeNonPositiveAmount},
		{ledger.ErrOverflow, tx.CodeInvalidField},
	} {
		var te *tx.Error
		if err := ledger.TxError(c.err); !errors.As(err, &te) || te.Code != c.code || te.Message == "" {
			t.Errorf("%v gives %v, want code %s", c.err, err, tx.CodeName(c.code))
		}
	}
	other := errors.New("disk on fire")
	if err := ledger.TxError(other); err != other {
		t.Errorf("a store error became %v", err)
	}
}
