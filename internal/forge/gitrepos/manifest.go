package gitrepos

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ipfs/go-cid"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
)

// RecordManifest records manifest, the manifest of big objects the
// blockstore built from pusher's push to repository repo, on chain
// (repo.manifest), in pusher's name as the push was
// (blocks.ManifestRecorder).
func (h *Repos) RecordManifest(ctx context.Context, repo uint64, pusher string, manifest cid.Cid) error {
	if !common.IsHexAddress(pusher) {
		return fmt.Errorf("record manifest of repository %d: pusher %q is not an address", repo, pusher)
	}
	_, err := h.forge.Do(ctx, common.HexToAddress(pusher), chainforge.RepoManifest{Repo: repo, Manifest: manifest.String()})
	if err != nil {
		return fmt.Errorf("record manifest of repository %d: %w", repo, err)
	}
	return nil
}
