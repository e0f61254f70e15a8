package tx

import (
	"crypto/ecdsa"
	"github.com/ethereum/go-ethereum/crypto"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// The hand-written digest must equal go-ethereum's EIP-712 implementation
// (what wallets compute) for every kind, over many random messages.
func TestDigestMatchesGoEthereum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, kind := range Kinds() {
		for range 200 {
			msg := map[string]any{}
			for _, f := range registry[kind] {
				msg[f.name] = randomMember(r, f.typ)
			}
			chainID := r.Uint64N(1 << 40)
			got, err := digest(kind, msg, chainID)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := apitypes.TypedDataAndHash(apitypes.TypedData{Types: Types(), PrimaryType: string(kind), Domain: Domain(chainID), Message: msg})
			if err != nil {
				t.Fatal(err)
			}
			if common.Hash(got) != common.BytesToHash(want) {
				t.Fatalf("%s %v chain %d: digest %x, go-ethereum %x", kind, msg, chainID, got, want)
			}
		}
	}
}

func randomMember(r *rand.Rand, typ string) string {
	switch typ {
	case "address":
		var a common.Address
		for i := range a {
			a[i] = byte(r.UintN(256))
		}
		return a.Hex()
	case "uint256":
		return strconv.FormatUint(r.Uint64(), 10)
	}
	runes := []rune("abcXYZ019 :/#-_.éλ漢")
	s := make([]rune, r.IntN(40))
	for i := range s {
		s[i] = runes[r.IntN(len(runes))]
	}
	return string(s)
}

func BenchmarkDecodeVerify(b *testing.B) {
	key, _ := cryptoKey()
	env, err := Sign(key, KindTransfer, map[string]any{
		"from": addressOf(key).Hex(), "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "amount": "1500000", "nonce": "7",
	}, 7771)
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := Encode(env)
	for b.Loop() {
		e, err := Decode(raw)
		if err == nil {
			_, err = Verify(e, 7771)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

func cryptoKey() (*ecdsa.PrivateKey, error) { return crypto.GenerateKey() }

func addressOf(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }
