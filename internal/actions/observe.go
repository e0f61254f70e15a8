package actions

import (
	"context"
	"fmt"
	"strings"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
)

// Observe records a trigger for each branch or tag push this node relayed
// (signed with its key) or applied to a private repository, in the
// transaction that projects it (index.ForgeObserver): every node sees
// every public push, and only the relaying one runs its workflows.
func (s *Service) Observe(ctx context.Context, tx *index.WriteTx, changes []index.ForgeChange) error {
	for _, fc := range changes {
		c := fc.Change
		if c.Action != "repo.push" || !s.relayed(fc) {
			continue
		}
		for _, u := range pushed(c) {
			if u.New == chainforge.ZeroSHA {
				continue // a deletion runs nothing
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO actions_triggers (repo_id, event, ref, before_sha, after_sha, actor, created_ms)
				VALUES ($1, 'push', $2, $3, $4, $5, $6)`, int64(u.Repo), u.Ref, u.Old, u.New, addr(c.Actor), fc.TimeNS/1e6)
			if err != nil {
				return fmt.Errorf("record the push trigger: %w", err)
			}
		}
	}
	return nil
}

// Projected wakes the worker once the triggers are committed.
func (s *Service) Projected() { s.notify() }

// relayed says whether this node carried out fc.
func (s *Service) relayed(fc index.ForgeChange) bool {
	return fc.Private || strings.EqualFold(fc.Change.Signer, s.cfg.Operator.Hex())
}

// pushed is a push's ref updates, old events' single one included.
func pushed(c chainforge.Change) []chainforge.RefUpdate {
	if len(c.Refs) == 0 && c.Ref != nil {
		return []chainforge.RefUpdate{*c.Ref}
	}
	return c.Refs
}
