package tx

import (
	"crypto/ecdsa"
	"fmt"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// TypedData is the EIP-712 document for a message of the given kind on the
// chain chainID: what a wallet receives in eth_signTypedData_v4.
func TypedData(kind Kind, message map[string]any, chainID uint64) apitypes.TypedData {
	return apitypes.TypedData{Types: Types(), PrimaryType: string(kind), Domain: Domain(chainID), Message: message}
}

// Sign signs a message as a wallet would and returns the envelope to
// submit, with the message in canonical form (checksummed addresses,
// decimal amounts) and v as 27/28. It is for Go clients: tests of other
// packages, benchmarks and tools, never for the node to sign for users.
func Sign(key *ecdsa.PrivateKey, kind Kind, message map[string]any, chainID uint64) (Envelope, error) {
	fields, ok := registry[kind]
	if !ok {
		return Envelope{}, unknownKind(string(kind))
	}
	t := Tx{Kind: kind}
	canonical, err := readMessage(fields, message, &t)
	if err != nil {
		return Envelope{}, err
	}
	hash, err := digest(kind, canonical, chainID)
	if err != nil {
		return Envelope{}, err
	}
	sig, err := crypto.Sign(hash[:], key)
	if err != nil {
		return Envelope{}, fmt.Errorf("sign %s: %w", kind, err)
	}
	sig[crypto.RecoveryIDOffset] += 27
	return Envelope{Type: string(kind), Message: canonical, Signature: hexutil.Encode(sig)}, nil
}
