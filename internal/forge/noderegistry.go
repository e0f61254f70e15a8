package forge

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/tx"
)

// RegisterNode records n (this operator's node) in the chain's node
// registry, relayed in line with the forge actions the operator key
// signs, and returns once the registration is projected.
func (s *Service) RegisterNode(ctx context.Context, n nodes.Node) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, waitTimeout)
		defer cancel()
	}
	pending, nonce, err := s.relay(ctx, tx.KindRegisterNode, map[string]any{"url": n.URL, "peerId": n.PeerID, "addrs": nodes.JoinAddrs(n.Addrs)})
	if err != nil {
		return fmt.Errorf("register node: %w", err)
	}
	committed, err := s.await(ctx, pending, s.operator, nonce)
	if err != nil {
		return fmt.Errorf("register node: %w", err)
	}
	if committed.Code != 0 {
		return fmt.Errorf("register node: %w", &tx.Error{Code: committed.Code, Name: tx.CodeName(committed.Code), Message: committed.Log})
	}
	if err := s.ix.WaitFor(ctx, committed.Height); err != nil {
		return fmt.Errorf("register node: wait for the index: %w", err)
	}
	return nil
}
