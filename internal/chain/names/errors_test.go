package names_test

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

func TestTxErrorCodes(t *testing.T) {
	kv := state.OpenMemory()
	a, b := common.Address{1}, common.Address{2}
	if _, err := names.Claim(kv, a, "alice"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		code uint32
		msg  string
	}{
		{"ALICE", tx.CodeUsernameTaken, "that username is taken by another account; choose another"},
		{"-x", tx.CodeInvalidField, "a username starts with a letter or digit and has no two of '-', '_', '.' in a row"},
		{"admin", tx.CodeInvalidField, `username is reserved: "admin" is used by the forge itself`},
	} {
		_, err := names.Claim(kv, b, c.name)
		var te *tx.Error
		if err = names.TxError(err); !errors.As(err, &te) || te.Code != c.code || te.Message != c.msg {
			t.Errorf("claim %q: %v, want code %s %q", c.name, err, tx.CodeName(c.code), c.msg)
		}
	}
}
