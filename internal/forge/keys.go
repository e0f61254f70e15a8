package forge

import (
	"context"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/sshkeys"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// SSH public keys: registered on chain (key.add, key.delete), read from
// the projection.

// AddKey registers an SSH public key for actor and returns it as
// projected. The key is checked here first, as the module will check it,
// so a malformed key never costs a transaction.
func (s *Service) AddKey(ctx context.Context, actor common.Address, title, key string) (index.Key, error) {
	title = strings.TrimSpace(title)
	switch {
	case title == "":
		return index.Key{}, usererr.BadFieldf("title", "the title must not be empty")
	case len(title) > sshkeys.MaxKeyTitle:
		return index.Key{}, usererr.BadFieldf("title", "the title is %d bytes; the most is %d", len(title), sshkeys.MaxKeyTitle)
	}
	parsed, err := sshkeys.ParseKey(key)
	if err != nil {
		return index.Key{}, rejection(err)
	}
	if _, err := s.Do(ctx, actor, sshkeys.Add{Title: title, Key: parsed.Key}); err != nil {
		return index.Key{}, err
	}
	k, ok, err := s.ix.KeyByFingerprint(ctx, parsed.Fingerprint)
	if err != nil {
		return index.Key{}, fmt.Errorf("read the new key: %w", err)
	}
	if !ok {
		return index.Key{}, fmt.Errorf("read the new key: %s is not projected", parsed.Fingerprint)
	}
	return k, nil
}

// DeleteKey removes actor's key id: 404 for none, 403 for another's.
func (s *Service) DeleteKey(ctx context.Context, actor common.Address, id uint64) error {
	if _, err := s.Do(ctx, actor, sshkeys.Delete{ID: id}); err != nil {
		return err
	}
	return nil
}

// Keys lists owner's keys, oldest first.
func (s *Service) Keys(ctx context.Context, owner common.Address, p index.Page) ([]index.Key, int64, error) {
	return s.ix.Keys(ctx, owner, p)
}

// OwnKey is actor's key id; another's key is not found, as in Gitea.
func (s *Service) OwnKey(ctx context.Context, actor common.Address, id uint64) (index.Key, error) {
	k, ok, err := s.ix.KeyByID(ctx, id)
	if err != nil {
		return index.Key{}, err
	}
	if !ok || !strings.EqualFold(k.Owner.Address, actor.Hex()) {
		return index.Key{}, usererr.Missingf("key %d does not exist", id)
	}
	return k, nil
}

// KeyOwner is who may use an SSH key of this fingerprint, and their
// username (false: no one).
func (s *Service) KeyOwner(ctx context.Context, fingerprint string) (common.Address, string, bool, error) {
	k, ok, err := s.ix.KeyByFingerprint(ctx, fingerprint)
	if err != nil || !ok {
		return common.Address{}, "", false, err
	}
	return common.HexToAddress(k.Owner.Address), k.Owner.Username, true, nil
}
