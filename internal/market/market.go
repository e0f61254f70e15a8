// Package market is the marketplace: listings of integrations (a webhook
// recipe: events and a URL template) published on chain, and installing
// one into a repository in one step, which relays listing.install and
// creates the repository's webhook on this node.
package market

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	chainlisting "github.com/dforge/dforge/internal/chain/listing"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/marketplace"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/dforge/dforge/internal/webhook"
)

// Service owns the marketplace's rules over the forge (the chain
// actions), the index (reads) and the webhooks (node-local).
type Service struct {
	forge *forge.Service
	hooks *webhook.Service
	ix    *index.Index
	db    *sql.DB
}

// New returns the marketplace over its services; st holds the
// node-local link of an install to the webhook this node created.
func New(f *forge.Service, hooks *webhook.Service, ix *index.Index, st *store.Store) *Service {
	return &Service{forge: f, hooks: hooks, ix: ix, db: st.DB()}
}

// Install is a listing installed in a repository; Hook is the webhook
// this node created for it (0: none here, e.g. installed through another
// node, or the hook was deleted since).
type Install struct {
	marketplace.ListingInstall
	Hook int64
}

// refusal turns a check of the chain module (a *tx.Error naming its
// field) into the API's 422 or 409, so bad input never costs a
// transaction and the answer names the field.
func refusal(err error) error {
	var te *tx.Error
	if !errors.As(err, &te) {
		return err
	}
	if te.Code == tx.CodeNameTaken {
		return usererr.Clashf(te.Name, "%s", te.Message).On(te.Field)
	}
	return usererr.Unprocessablef(te.Field, te.Name, "%s", te.Message)
}

// Listings lists the live listings matching q, most installed first.
func (s *Service) Listings(ctx context.Context, q string, p index.Page) ([]marketplace.Listing, int64, error) {
	return s.ix.Marketplace().Listings(ctx, q, p)
}

// Listing is live listing id; a deleted or unknown one is not found.
func (s *Service) Listing(ctx context.Context, id uint64) (marketplace.Listing, error) {
	l, ok, err := s.ix.Marketplace().Listing(ctx, id)
	if err != nil {
		return marketplace.Listing{}, err
	}
	if !ok || l.Deleted {
		return marketplace.Listing{}, usererr.Missingf("listing %d does not exist", id)
	}
	return l, nil
}

// Publish publishes a listing for actor and returns it as projected.
func (s *Service) Publish(ctx context.Context, actor common.Address, p chainlisting.Publish) (marketplace.Listing, error) {
	l := chainforge.Listing{Name: p.Name, Description: p.Description, Events: p.Events, URLTemplate: p.URLTemplate, Homepage: p.Homepage}
	if err := chainlisting.Check(l); err != nil {
		return marketplace.Listing{}, refusal(err)
	}
	if err := s.nameFree(ctx, p.Name, 0); err != nil {
		return marketplace.Listing{}, err
	}
	res, err := s.forge.Do(ctx, actor, p)
	if err != nil {
		return marketplace.Listing{}, err
	}
	if res.Change.Listing == nil {
		return marketplace.Listing{}, errors.New("publish listing: the chain's change has no listing")
	}
	return s.Listing(ctx, res.Change.Listing.ID)
}

// nameFree refuses a name another live listing holds (the chain would).
func (s *Service) nameFree(ctx context.Context, name string, self uint64) error {
	other, ok, err := s.ix.Marketplace().ListingByName(ctx, name)
	if err != nil {
		return err
	}
	if ok && other.ID != self {
		return usererr.Clashf("name_taken", "a listing named %q exists already; names are unique without regard to case", other.Name).On("name")
	}
	return nil
}

// Update changes the fields p sets of actor's listing p.ID.
func (s *Service) Update(ctx context.Context, actor common.Address, p chainlisting.Update) (marketplace.Listing, error) {
	cur, err := s.own(ctx, actor, p.ID)
	if err != nil {
		return marketplace.Listing{}, err
	}
	next := chainforge.Listing{Name: cur.Name, Description: cur.Description, Events: cur.Events, URLTemplate: cur.URLTemplate, Homepage: cur.Homepage}
	pick := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	pick(&next.Name, p.Name)
	pick(&next.Description, p.Description)
	pick(&next.URLTemplate, p.URLTemplate)
	pick(&next.Homepage, p.Homepage)
	if p.Events != nil {
		next.Events = *p.Events
	}
	if err := chainlisting.Check(next); err != nil {
		return marketplace.Listing{}, refusal(err)
	}
	if err := s.nameFree(ctx, next.Name, cur.ID); err != nil {
		return marketplace.Listing{}, err
	}
	if _, err := s.forge.Do(ctx, actor, p); err != nil {
		return marketplace.Listing{}, err
	}
	return s.Listing(ctx, p.ID)
}

// Delete hides actor's listing id; its installs and their webhooks stay.
func (s *Service) Delete(ctx context.Context, actor common.Address, id uint64) error {
	if _, err := s.own(ctx, actor, id); err != nil {
		return err
	}
	_, err := s.forge.Do(ctx, actor, chainlisting.Delete{ID: id})
	return err
}

// own is live listing id if actor published it: 404 for none, 403 for
// another's.
func (s *Service) own(ctx context.Context, actor common.Address, id uint64) (marketplace.Listing, error) {
	l, err := s.Listing(ctx, id)
	if err != nil {
		return marketplace.Listing{}, err
	}
	if !strings.EqualFold(l.Publisher.Address, actor.Hex()) {
		return marketplace.Listing{}, usererr.Deniedf("listing %d is not yours; only its publisher changes it", id)
	}
	return l, nil
}

// admin checks actor may install into repo (perm is actor's permission,
// the repository already readable): its administrators, maintain and up
// as for webhooks, on a public repository.
func admin(repo index.Repo, perm forge.Perm) error {
	if perm < forge.PermMaintain {
		return usererr.Deniedf("only the repository's administrators install or remove listings")
	}
	if repo.Private {
		return usererr.Unprocessablef("repo", "private_repo",
			"%s is private: installs are public records on chain, so a private repository takes none; add a webhook in its settings instead", repo.Name)
	}
	return nil
}

// Installs lists repo's installs (public records: for whoever reads the
// repository), with, for its administrators (perm), the webhook this
// node made for each.
func (s *Service) Installs(ctx context.Context, repo index.Repo, perm forge.Perm) ([]Install, error) {
	list, err := s.ix.Marketplace().RepoInstalls(ctx, repo.ID)
	if err != nil {
		return nil, err
	}
	out := make([]Install, 0, len(list))
	for _, in := range list {
		var hook int64
		if perm >= forge.PermMaintain {
			if hook, err = s.hookOf(ctx, in.Listing.ID, repo.ID); err != nil {
				return nil, err
			}
		}
		out = append(out, Install{ListingInstall: in, Hook: hook})
	}
	return out, nil
}
