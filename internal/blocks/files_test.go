package blocks_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/ipfs/go-cid"
	"github.com/ipld/go-car/v2"

	"github.com/dforge/dforge/internal/blocks"
)

// A file (a release asset, an LFS object) is stored as a UnixFS file with
// its size and SHA-256, refused past its limit, and comes whole out of the
// gateway's CAR to a client that holds nothing else: what an IPFS client
// fetching it by CID gets.
func TestFilesThroughTheGateway(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	data := make([]byte, 2*blocks.ChunkSize+4242)
	rand.Read(data)
	sum := sha256.Sum256(data)
	f, err := s.PutFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if f.Size != int64(len(data)) || f.SHA256 != hex.EncodeToString(sum[:]) || f.CID.Type() != cid.DagProtobuf || f.CID.Version() != 1 {
		t.Fatalf("file %+v", f)
	}
	if _, err := s.PutFile(bytes.NewReader(data), int64(len(data))-1); !errors.Is(err, blocks.ErrTooLarge) {
		t.Fatalf("a file one byte over its limit: %v", err)
	}

	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	res, body := request(t, srv, "GET", "/ipfs/"+f.CID.String()+"?format=car", "")
	if res.StatusCode != 200 {
		t.Fatalf("CAR: %d %s", res.StatusCode, body)
	}
	br, err := car.NewBlockReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	client := openStore(t, filepath.Join(t.TempDir(), "client"))
	for {
		b, err := br.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := client.Put(b.Cid(), b.RawData()); err != nil { // Put checks the bytes against the CID
			t.Fatal(err)
		}
	}
	r, err := blocks.OpenFile(ctx, client.GetBlock, f.CID)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the file from the CAR: %d bytes (%v), want the %d stored", len(got), err, len(data))
	}
}
