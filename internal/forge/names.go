package forge

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/usererr"
)

// A public and a private repository of one owner must not share a name:
// the owner would push to owner/name.git meaning one and reach the other,
// publishing private code. The chain cannot see private names, so the node
// that holds the private repository refuses the clash for its own users'
// actions. An action that names someone else as owner (a transfer) is not
// refused: that would tell the actor the other owner has a private
// repository of that name. There the private one wins the name on this
// node (index.RepoByName). Accepting that transfer is the recipient's own
// action, so that is refused.

// named is the repository an action makes or renames: its owner, its new
// name, whether it is private, and its id when it exists already.
type named struct {
	owner   common.Address
	name    string
	private bool
	id      uint64
}

// checkNameClash refuses an action by actor that would give actor a public
// and a private repository of the same name.
func (s *Service) checkNameClash(ctx context.Context, actor common.Address, action, raw string) error {
	n, ok, err := s.namedBy(ctx, actor, action, raw)
	if err != nil {
		return fmt.Errorf("find the repository %s names: %w", action, err)
	}
	if !ok || n.owner != actor {
		return nil
	}
	clash, err := s.ix.NameUsed(ctx, n.owner, n.name, !n.private, n.id)
	if err != nil {
		return fmt.Errorf("check the name %s: %w", n.name, err)
	}
	if !clash {
		return nil
	}
	other := "a private"
	if n.private {
		other = "a public"
	}
	return usererr.Clashf("name_taken", "you already have %s repository named %s; a public and a private repository cannot share a name", other, n.name).On("name")
}

// namedBy reads the repository an action names; ok is false for actions
// that name none, and for payloads the module will refuse anyway.
func (s *Service) namedBy(ctx context.Context, actor common.Address, action, raw string) (named, bool, error) {
	switch action {
	case "repo.create":
		var p chainforge.RepoCreate
		// An organization's repositories are public, and no node keeps a
		// private one under its name: nothing to clash with.
		if json.Unmarshal([]byte(raw), &p) != nil || p.Org != 0 {
			return named{}, false, nil
		}
		return named{owner: actor, name: p.Name, private: p.Private}, true, nil
	case "repo.update":
		var p chainforge.RepoUpdate
		if json.Unmarshal([]byte(raw), &p) != nil || p.Name == nil {
			return named{}, false, nil
		}
		return s.existing(ctx, p.Repo, *p.Name, nil)
	case "repo.transfer":
		var p chainforge.RepoTransfer
		if json.Unmarshal([]byte(raw), &p) != nil {
			return named{}, false, nil
		}
		return s.existing(ctx, p.Repo, "", &p.NewOwner)
	case "repo.transfer.accept":
		var p chainforge.RepoTransferAccept
		if json.Unmarshal([]byte(raw), &p) != nil {
			return named{}, false, nil
		}
		return s.existing(ctx, p.Repo, "", &actor)
	case "repo.fork":
		var p chainforge.RepoFork
		if json.Unmarshal([]byte(raw), &p) != nil || p.Org != 0 {
			return named{}, false, nil
		}
		n, ok, err := s.existing(ctx, p.Repo, p.Name, &actor)
		n.id = 0 // the fork is a new repository
		return n, ok, err
	}
	return named{}, false, nil
}

// existing is repository id under a new name (its own when empty) and a
// new owner (its own when nil). A missing repository names nothing: the
// module says it does not exist.
func (s *Service) existing(ctx context.Context, id uint64, name string, owner *common.Address) (named, bool, error) {
	r, err := s.ix.RepoByID(ctx, id)
	if _, missing := usererr.As(err); missing {
		return named{}, false, nil
	} else if err != nil {
		return named{}, false, fmt.Errorf("read repository %d: %w", id, err)
	}
	n := named{owner: common.HexToAddress(r.Owner.Address), name: r.Name, private: r.Private, id: r.ID}
	if name != "" {
		n.name = name
	}
	if owner != nil {
		n.owner = *owner
	}
	return n, true, nil
}
