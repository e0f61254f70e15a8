package main

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
)

// carOf writes a CARv1 as `ipfs dag export` does: the dag-cbor header
// {roots: [root], version: 1}, then a section per block.
func carOf(t *testing.T, root string, blocks map[string][]byte, order []string) []byte {
	t.Helper()
	rc, err := gitCID(root)
	if err != nil {
		t.Fatal(err)
	}
	link := append([]byte{0xd8, 0x2a, 0x58, byte(1 + len(rc.Bytes())), 0x00}, rc.Bytes()...)
	header := append(append([]byte{0xa2, 0x65}, "roots"...), 0x81)
	header = append(append(append(header, link...), 0x67), "version"...)
	header = append(header, 0x01)
	out := binary.AppendUvarint(nil, uint64(len(header)))
	out = append(out, header...)
	for _, id := range order {
		c, err := gitCID(id)
		if err != nil {
			t.Fatal(err)
		}
		out = binary.AppendUvarint(out, uint64(len(c.Bytes())+len(blocks[id])))
		out = append(append(out, c.Bytes()...), blocks[id]...)
	}
	return out
}

func loose(kind, body string) (string, []byte) {
	data := []byte(kind + " " + strconv.Itoa(len(body)) + "\x00" + body)
	sum := sha1.Sum(data)
	return hex.EncodeToString(sum[:]), data
}

func TestReadCAR(t *testing.T) {
	blobID, blob := loose("blob", "hello\n")
	treeID, tree := loose("tree", "100644 a\x00"+string(mustHex(t, blobID)))
	blocks := map[string][]byte{blobID: blob, treeID: tree}
	roots, got, err := readCAR(carOf(t, treeID, blocks, []string{treeID, blobID}))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := gitCID(treeID); len(roots) != 1 || !roots[0].Equals(want) {
		t.Fatalf("roots = %v, want [%s]", roots, want)
	}
	if len(got) != 2 || string(got[1].data) != string(blob) {
		t.Fatalf("blocks = %v", got)
	}

	// A block whose bytes are not its CID's.
	blocks[blobID] = []byte("blob 6\x00HELLO\n")
	if _, _, err := readCAR(carOf(t, treeID, blocks, []string{treeID, blobID})); err == nil || !strings.Contains(err.Error(), "hash to") {
		t.Fatalf("a forged block: err = %v", err)
	}
}

func mustHex(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
