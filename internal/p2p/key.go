package p2p

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
)

// LoadKey reads the node's libp2p key from path (libp2p's protobuf form),
// making an ed25519 one there on first use: the peer id must outlive a
// restart, since peers and the node registry name the node by it.
func LoadKey(path string) (crypto.PrivKey, error) {
	data, err := os.ReadFile(path)
	if err == nil {
		k, err := crypto.UnmarshalPrivateKey(data)
		if err != nil {
			return nil, fmt.Errorf("read p2p key %s: %w", path, err)
		}
		return k, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read p2p key: %w", err)
	}
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("make p2p key: %w", err)
	}
	data, err = crypto.MarshalPrivateKey(k)
	if err != nil {
		return nil, fmt.Errorf("encode p2p key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create p2p key dir: %w", err)
	}
	// Written aside and renamed, so a crash never leaves half a key.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return nil, fmt.Errorf("write p2p key: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("write p2p key: %w", err)
	}
	return k, nil
}

// ParsePeer reads a peer's full address, /ip4/127.0.0.1/tcp/4001/p2p/<id>.
func ParsePeer(s string) (multiaddr.Multiaddr, error) {
	a, err := multiaddr.NewMultiaddr(s)
	if err != nil {
		return nil, fmt.Errorf("peer address %q: %w", s, err)
	}
	if _, err := peer.AddrInfoFromP2pAddr(a); err != nil {
		return nil, fmt.Errorf("peer address %q must end in /p2p/<peer id>: %w", s, err)
	}
	return a, nil
}
