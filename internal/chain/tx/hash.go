package tx

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// The EIP-712 digest, computed directly for the few member types our
// transactions use (address, uint256, string). It is what
// apitypes.TypedDataAndHash computes (a test checks every kind against
// it), without its reflection and JSON round trips, which cost as much as
// the signature recovery itself on the node's hottest path.

// typeHashes is keccak256 of each kind's encodeType, e.g.
// "Transfer(address from,address to,uint256 amount,uint256 nonce)". Built
// once and only read; no member type refers to another struct, so the
// encoding is the primary type alone.
var typeHashes = func() map[Kind][32]byte {
	out := make(map[Kind][32]byte, len(registry))
	for kind, fields := range registry {
		members := make([]string, len(fields))
		for i, f := range fields {
			members[i] = f.typ + " " + f.name
		}
		out[kind] = crypto.Keccak256Hash([]byte(string(kind) + "(" + strings.Join(members, ",") + ")"))
	}
	return out
}()

var (
	domainTypeHash = crypto.Keccak256Hash([]byte("EIP712Domain(string name,string version,uint256 chainId)"))
	nameHash       = crypto.Keccak256Hash([]byte(DomainName))
	versionHash    = crypto.Keccak256Hash([]byte(DomainVersion))
)

// domainSeparator is hashStruct(EIP712Domain) for the chain chainID.
func domainSeparator(chainID uint64) [32]byte {
	buf := make([]byte, 0, 4*32)
	buf = append(buf, domainTypeHash[:]...)
	buf = append(buf, nameHash[:]...)
	buf = append(buf, versionHash[:]...)
	buf = appendUint256(buf, chainID)
	return crypto.Keccak256Hash(buf)
}

// digest is keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(message))
// of a canonical message (the strings readMessage returns).
func digest(kind Kind, message map[string]any, chainID uint64) ([32]byte, error) {
	fields := registry[kind]
	buf := make([]byte, 0, 32*(1+len(fields)))
	th := typeHashes[kind]
	buf = append(buf, th[:]...)
	for _, f := range fields {
		s, _ := message[f.name].(string)
		var err error
		if buf, err = appendMember(buf, f.typ, s); err != nil {
			// Unreachable for a message readMessage accepted; kept as a
			// rejection rather than a panic all the same.
			return [32]byte{}, NewError(CodeInvalidField, "hash field %q: %v", f.name, err)
		}
	}
	structHash := crypto.Keccak256Hash(buf)
	ds := domainSeparator(chainID)
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, ds[:], structHash[:]), nil
}

// appendMember appends encodeData of one canonical member value.
func appendMember(buf []byte, typ, s string) ([]byte, error) {
	switch typ {
	case "address":
		if !common.IsHexAddress(s) {
			return nil, fmt.Errorf("%q is not an address", s)
		}
		var word [32]byte
		copy(word[12:], common.HexToAddress(s).Bytes())
		return append(buf, word[:]...), nil
	case "uint256":
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, err
		}
		return appendUint256(buf, n), nil
	case "string":
		h := crypto.Keccak256Hash([]byte(s))
		return append(buf, h[:]...), nil
	}
	return nil, fmt.Errorf("member type %s is not supported", typ)
}

func appendUint256(buf []byte, n uint64) []byte {
	var word [32]byte
	binary.BigEndian.PutUint64(word[24:], n)
	return append(buf, word[:]...)
}
