// Package marketplace is the marketplace's part of the index: Write and
// Reset, which internal/index calls as it projects, and Reader.
//
// The marketplace (market_listings, market_installs), projected from
// listing.* actions. A listing's install count is the number of
// repositories it is installed in now, counted from market_installs,
// whose rows go with their repository (it is one of the index's
// forgeTables).
package marketplace

import (
	"context"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// at is where a change was applied: its block's height and time.
type at struct {
	height, timeNS int64
}

// Write projects ch, applied at height and time timeNS: the listing, then
// the install or its removal. A change of anything else writes nothing.
func Write(ctx context.Context, tx *readdb.WriteTx, ch forge.Change, height, timeNS int64) error {
	c := at{height: height, timeNS: timeNS}
	if l := ch.Listing; l != nil {
		if err := writeListing(ctx, tx, c, l); err != nil {
			return err
		}
	}
	in := ch.Install
	if in == nil {
		return nil
	}
	var err error
	if in.On {
		_, err = tx.ExecContext(ctx, `INSERT INTO market_installs (listing_id, repo_id, installer, height, time_ns)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (listing_id, repo_id) DO NOTHING`,
			int64(in.Listing), int64(in.Repo), in.Installer.Hex(), c.height, c.timeNS)
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM market_installs WHERE listing_id = $1 AND repo_id = $2`, int64(in.Listing), int64(in.Repo))
	}
	if err != nil {
		return fmt.Errorf("write install of listing %d in repository %d: %w", in.Listing, in.Repo, err)
	}
	return nil
}

func writeListing(ctx context.Context, tx *readdb.WriteTx, c at, l *forge.Listing) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO market_listings (id, publisher, name, lower_name, description, events,
		url_template, homepage, deleted, created_height, created_time_ns, updated_height, updated_time_ns)
		VALUES ($1, $2, $3, lower($3), $4, $5, $6, $7, $8, $9, $10, $11, $10)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, lower_name = excluded.lower_name,
		description = excluded.description, events = excluded.events, url_template = excluded.url_template,
		homepage = excluded.homepage, deleted = excluded.deleted, updated_height = excluded.updated_height,
		updated_time_ns = excluded.updated_time_ns`,
		int64(l.ID), l.Publisher.Hex(), l.Name, l.Description, strings.Join(l.Events, ","), l.URLTemplate, l.Homepage,
		l.Deleted, int64(l.CreatedHeight), c.timeNS, c.height)
	if err != nil {
		return fmt.Errorf("write listing %d: %w", l.ID, err)
	}
	return nil
}

// Reset empties the listings; their installs are a forge table.
func Reset(ctx context.Context, tx *readdb.WriteTx) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM market_listings"); err != nil {
		return fmt.Errorf("empty market_listings: %w", err)
	}
	return nil
}
