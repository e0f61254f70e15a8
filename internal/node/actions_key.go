package node

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// actionsKeyFile is where the key that seals Actions' secrets lives:
// node-local, like the secrets themselves, and never on chain. Losing it
// loses the secrets (jobs then run without them; owners set them again).
func actionsKeyFile(dataDir string) string {
	return filepath.Join(dataDir, "actions-secrets.key")
}

// loadOrCreateActionsKey reads the node's AES-256 key for Actions'
// secrets from path (hex), creating it (0600) on first use. The new key
// is written to a temporary file and linked into place, so a crash never
// leaves a half-written key and two starts never write two keys.
func loadOrCreateActionsKey(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err == nil {
		key, err := hex.DecodeString(strings.TrimSpace(string(raw)))
		if err != nil || len(key) != 32 {
			return nil, fmt.Errorf("read the actions secret key %s: not 32 bytes in hex", path)
		}
		return key, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read the actions secret key %s: %w", path, err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("draw the actions secret key: %w", err)
	}
	if err := writeNewKey(path, hex.EncodeToString(key)+"\n"); err != nil {
		if errors.Is(err, os.ErrExist) { // another start made it first
			return loadOrCreateActionsKey(path)
		}
		return nil, err
	}
	return key, nil
}

// writeNewKey writes text to path, which must not exist, all or nothing.
func writeNewKey(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create the key's dir: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".actions-secrets.key-*")
	if err != nil {
		return fmt.Errorf("create the key file: %w", err)
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone once linked
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("protect the key file: %w", err)
	}
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		return fmt.Errorf("write the key file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("sync the key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close the key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		return fmt.Errorf("place the key file: %w", err)
	}
	return nil
}
