package node

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The key is made once, 0600, and read back the same on every start; a
// damaged key file stops the node rather than sealing with a new key.
func TestTheActionsKeyIsMadeOnceAndKept(t *testing.T) {
	path := actionsKeyFile(filepath.Join(t.TempDir(), "data"))
	first, err := loadOrCreateActionsKey(path)
	if err != nil || len(first) != 32 {
		t.Fatalf("create: %d bytes, %v", len(first), err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v %v", info, err)
	}
	again, err := loadOrCreateActionsKey(path)
	if err != nil || !bytes.Equal(first, again) {
		t.Fatalf("a second start read another key: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".actions-secrets.key-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	if err := os.WriteFile(path, []byte("abcd\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadOrCreateActionsKey(path); err == nil {
		t.Fatal("a damaged key file was accepted")
	}
}
