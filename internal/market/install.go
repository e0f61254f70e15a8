package market

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	chainlisting "github.com/dforge/dforge/internal/chain/listing"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/dforge/dforge/internal/webhook"
)

// Install installs listing id into repo for actor in one step: the
// repository's webhook (Gitea type, JSON, the listing's events, its URL
// template filled for repo, active) and the chain's listing.install.
//
// The webhook comes first, so an install the chain counts always has its
// webhook. Should the chain refuse the install, the webhook is deleted
// again and nothing is left. Should the network not commit in time (the
// install may still apply later), the webhook stays and the error says
// so: never a counted install without a webhook, never a webhook the
// user was not told about.
func (s *Service) Install(ctx context.Context, actor common.Address, repo index.Repo, perm forge.Perm, id uint64) (Install, error) {
	// 1. Everything the chain would refuse, before anything is written.
	if err := admin(repo, perm); err != nil {
		return Install{}, err
	}
	l, err := s.Listing(ctx, id)
	if err != nil {
		return Install{}, usererr.Unprocessablef("listing", "not_found", "listing %d does not exist", id)
	}
	installed, err := s.ix.Marketplace().Installed(ctx, id, repo.ID)
	if err != nil {
		return Install{}, err
	}
	if installed {
		return Install{}, usererr.Clashf("conflict", "%s is installed in %s already", l.Name, repo.Name)
	}
	// The chain lets a listing ask for Gitea's wiki and package events,
	// which no node sends: the webhook subscribes to the others.
	events := webhook.Sent(l.Events)
	if len(events) == 0 {
		return Install{}, usererr.BadFieldf("listing", "%s asks only for events this node never sends (%v)", l.Name, l.Events)
	}
	// 2. The webhook.
	url := chainlisting.FillURLTemplate(l.URLTemplate, repo.Owner.Username, repo.Name, repo.ID)
	contentType, active := "json", true
	hook, err := s.hooks.Create(ctx, webhook.Scope{RepoID: repo.ID}, webhook.Input{URL: &url, ContentType: &contentType, Events: events, Active: &active})
	if err != nil {
		return Install{}, fmt.Errorf("create the webhook: %w", err)
	}
	// 3. The chain's record; the webhook goes again if it is refused.
	if _, err := s.forge.Do(ctx, actor, chainlisting.Install{Listing: id, Repo: repo.ID}); err != nil {
		if ue, ok := usererr.As(err); ok && ue.Code == forge.NotCommitted {
			if lerr := s.link(ctx, id, repo.ID, hook.ID); lerr != nil {
				return Install{}, errors.Join(err, lerr)
			}
			return Install{}, usererr.New(ue.Kind, ue.Code, fmt.Sprintf("%s The webhook %d to %s is created and stays; remove it in the repository's webhooks should the install never apply.", ue.Message, hook.ID, url))
		}
		if derr := s.hooks.Delete(context.WithoutCancel(ctx), webhook.Scope{RepoID: repo.ID}, hook.ID); derr != nil {
			return Install{}, errors.Join(err, fmt.Errorf("remove the webhook %d made for the refused install: %w", hook.ID, derr))
		}
		return Install{}, err
	}
	if err := s.link(ctx, id, repo.ID, hook.ID); err != nil {
		return Install{}, err
	}
	list, err := s.ix.Marketplace().RepoInstalls(ctx, repo.ID)
	if err != nil {
		return Install{}, fmt.Errorf("read the new install: %w", err)
	}
	for _, in := range list {
		if in.Listing.ID == id {
			return Install{ListingInstall: in, Hook: hook.ID}, nil
		}
	}
	return Install{}, fmt.Errorf("read the install of listing %d in repository %d: not projected", id, repo.ID)
}

// Uninstall removes listing id from repo for actor: the chain's record
// first (it is what counts), then the webhook this node made for it, if
// it still exists. An install of a deleted listing is removed the same.
func (s *Service) Uninstall(ctx context.Context, actor common.Address, repo index.Repo, perm forge.Perm, id uint64) error {
	if err := admin(repo, perm); err != nil {
		return err
	}
	installed, err := s.ix.Marketplace().Installed(ctx, id, repo.ID)
	if err != nil {
		return err
	}
	if !installed {
		return usererr.Missingf("listing %d is not installed in %s", id, repo.Name)
	}
	if _, err := s.forge.Do(ctx, actor, chainlisting.Uninstall{Listing: id, Repo: repo.ID}); err != nil {
		return err
	}
	hook, err := s.hookOf(ctx, id, repo.ID)
	if err != nil {
		return err
	}
	if hook != 0 {
		err := s.hooks.Delete(context.WithoutCancel(ctx), webhook.Scope{RepoID: repo.ID}, hook)
		if ue, ok := usererr.As(err); err != nil && !(ok && ue.Kind == usererr.NotFound) {
			return fmt.Errorf("the install is removed, but not its webhook %d: %w", hook, err)
		}
	}
	if _, err := s.db.ExecContext(context.WithoutCancel(ctx), `DELETE FROM market_hooks WHERE listing_id = $1 AND repo_id = $2`,
		int64(id), int64(repo.ID)); err != nil {
		return fmt.Errorf("forget the webhook of the install: %w", err)
	}
	return nil
}

// link records the webhook this node made for an install.
func (s *Service) link(ctx context.Context, listing, repo uint64, hook int64) error {
	_, err := s.db.ExecContext(context.WithoutCancel(ctx), `INSERT INTO market_hooks (listing_id, repo_id, hook_id) VALUES ($1, $2, $3)
		ON CONFLICT (listing_id, repo_id) DO UPDATE SET hook_id = excluded.hook_id`, int64(listing), int64(repo), hook)
	if err != nil {
		return fmt.Errorf("record the webhook %d of the install: %w", hook, err)
	}
	return nil
}

// hookOf is the webhook this node made for listing's install in repo, if
// it still exists (0: none).
func (s *Service) hookOf(ctx context.Context, listing, repo uint64) (int64, error) {
	var hook int64
	err := s.db.QueryRowContext(ctx, `SELECT hook_id FROM market_hooks WHERE listing_id = $1 AND repo_id = $2`,
		int64(listing), int64(repo)).Scan(&hook)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("read the webhook of the install: %w", err)
	}
	if _, err := s.hooks.Get(ctx, webhook.Scope{RepoID: repo}, hook); err != nil {
		if ue, ok := usererr.As(err); ok && ue.Kind == usererr.NotFound {
			return 0, nil
		}
		return 0, err
	}
	return hook, nil
}
