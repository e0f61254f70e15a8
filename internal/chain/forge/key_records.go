package forge

import "github.com/ethereum/go-ethereum/common"

// The SSH keys' record, as key.add's and key.delete's events carry it
// (Change.Key, Change.DeletedKey). The actions, keys and rules are
// internal/chain/sshkeys'; the record stays here because Change, whose JSON
// is the event, names it.

// Key is a registered SSH public key.
type Key struct {
	ID    uint64         `json:"id"`
	Owner common.Address `json:"owner"`
	Title string         `json:"title"`
	// Key is the key in authorized_keys form, "<type> <base64>", without
	// options or comment.
	Key string `json:"key"`
	// Fingerprint is OpenSSH's "SHA256:<unpadded base64>".
	Fingerprint   string `json:"fingerprint"`
	CreatedHeight uint64 `json:"createdHeight"`
}
