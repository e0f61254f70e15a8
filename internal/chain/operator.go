package chain

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ethereum/go-ethereum/crypto"
)

// OperatorKeyFile is where a node keeps its operator key: the secp256k1 key
// it signs the forge actions it relays with. The genesis lists the
// operators' addresses.
func OperatorKeyFile(dataDir string) string { return filepath.Join(dataDir, "operator.key") }

// LoadOrCreateOperatorKey reads the key at path (hex, as geth writes
// keys), creating it with a new random key when the file does not exist.
func LoadOrCreateOperatorKey(path string) (*ecdsa.PrivateKey, error) {
	key, err := crypto.LoadECDSA(path)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read operator key %s: %w", path, err)
	}
	if key, err = crypto.GenerateKey(); err != nil {
		return nil, fmt.Errorf("generate operator key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create operator key dir: %w", err)
	}
	if err := crypto.SaveECDSA(path, key); err != nil { // mode 0600
		return nil, fmt.Errorf("write operator key %s: %w", path, err)
	}
	return key, nil
}
