package marketplace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/index/readdb"
)

// Reader reads the marketplace's projection.
type Reader struct {
	db *readdb.DB
}

// NewReader returns a Reader on db, the index's.
func NewReader(db *readdb.DB) *Reader { return &Reader{db: db} }

// Listing is a marketplace listing with its install count.
type Listing struct {
	ID          uint64      `json:"id"`
	Publisher   readdb.User `json:"publisher"`
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Events      []string    `json:"events"`
	URLTemplate string      `json:"urlTemplate"`
	Homepage    string      `json:"homepage"`
	Deleted     bool        `json:"deleted"`
	Installs    int64       `json:"installs"`
	Created     time.Time   `json:"created"`
	Updated     time.Time   `json:"updated"`
}

// ListingInstall is a listing installed in a repository.
type ListingInstall struct {
	Listing   Listing     `json:"listing"`
	RepoID    uint64      `json:"repoId"`
	Installer readdb.User `json:"installer"`
	Height    int64       `json:"height"`
	Created   time.Time   `json:"created"`
}

const listingCols = `l.id, l.publisher, ` + `COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')` + `, l.name, l.description, l.events,
	l.url_template, l.homepage, l.deleted, l.created_time_ns, l.updated_time_ns,
	(SELECT COUNT(*) FROM market_installs i WHERE i.listing_id = l.id)`
const listingFrom = `market_listings l LEFT JOIN chain_accounts a ON a.address = l.publisher`

func scanListing(row interface{ Scan(...any) error }, extra ...any) (Listing, error) {
	var l Listing
	var id, created, updated int64
	var publisher, name, events string
	dst := append([]any{&id, &publisher, &name, &l.Name, &l.Description, &events, &l.URLTemplate, &l.Homepage,
		&l.Deleted, &created, &updated, &l.Installs}, extra...)
	if err := row.Scan(dst...); err != nil {
		return Listing{}, err
	}
	l.ID, l.Publisher = uint64(id), readdb.UserOf(publisher, name)
	l.Events = strings.Split(events, ",")
	l.Created, l.Updated = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return l, nil
}

// Listings lists the live listings whose name or description holds
// query (any when ""), most installed first, and their total.
func (rd *Reader) Listings(ctx context.Context, query string, p readdb.Page) ([]Listing, int64, error) {
	where, args := "NOT l.deleted", []any{}
	if q := strings.TrimSpace(query); q != "" {
		args = append(args, "%"+readdb.LikeEscape(strings.ToLower(q))+"%")
		where += ` AND (l.lower_name LIKE $1 ESCAPE '\' OR lower(l.description) LIKE $1 ESCAPE '\')`
	}
	out := []Listing{}
	total, err := rd.db.ListPage(ctx, listingCols, listingFrom, "market_listings l", where,
		"(SELECT COUNT(*) FROM market_installs i WHERE i.listing_id = l.id) DESC, l.id", args, p, func(rows *sql.Rows) error {
			l, err := scanListing(rows)
			out = append(out, l)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list listings: %w", err)
	}
	return out, total, nil
}

// Listing is listing id, deleted ones included (false: no such listing).
func (rd *Reader) Listing(ctx context.Context, id uint64) (Listing, bool, error) {
	l, err := scanListing(rd.db.QueryRow(ctx, `SELECT `+listingCols+` FROM `+listingFrom+` WHERE l.id = $1`, int64(id)))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Listing{}, false, nil
	case err != nil:
		return Listing{}, false, fmt.Errorf("read listing %d: %w", id, err)
	}
	return l, true, nil
}

// RepoInstalls lists the listings installed in repository repo, deleted
// ones included (their webhooks stay until removed), oldest first.
func (rd *Reader) RepoInstalls(ctx context.Context, repo uint64) ([]ListingInstall, error) {
	rows, err := rd.db.Query(ctx, `SELECT `+listingCols+`, n.installer, `+readdb.UserExpr("b")+`, n.height, n.time_ns
		FROM market_installs n JOIN market_listings l ON l.id = n.listing_id
		LEFT JOIN chain_accounts a ON a.address = l.publisher LEFT JOIN chain_accounts b ON b.address = n.installer
		WHERE n.repo_id = $1 ORDER BY n.height, n.listing_id`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("list installs of repository %d: %w", repo, err)
	}
	defer rows.Close()
	out := []ListingInstall{}
	for rows.Next() {
		in := ListingInstall{RepoID: repo}
		var installer, name string
		var ns int64
		l, err := scanListing(rows, &installer, &name, &in.Height, &ns)
		if err != nil {
			return nil, fmt.Errorf("read install: %w", err)
		}
		in.Listing, in.Installer, in.Created = l, readdb.UserOf(installer, name), time.Unix(0, ns).UTC()
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list installs of repository %d: %w", repo, err)
	}
	return out, nil
}

// Installed reports whether listing is installed in repo.
func (rd *Reader) Installed(ctx context.Context, listing, repo uint64) (bool, error) {
	var n int
	err := rd.db.QueryRow(ctx, `SELECT COUNT(*) FROM market_installs WHERE listing_id = $1 AND repo_id = $2`,
		int64(listing), int64(repo)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read install: %w", err)
	}
	return n > 0, nil
}

// ListingByName is the live listing named name without regard to case.
func (rd *Reader) ListingByName(ctx context.Context, name string) (Listing, bool, error) {
	l, err := scanListing(rd.db.QueryRow(ctx, `SELECT `+listingCols+` FROM `+listingFrom+
		` WHERE l.lower_name = lower($1) AND NOT l.deleted`, name))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Listing{}, false, nil
	case err != nil:
		return Listing{}, false, fmt.Errorf("read listing %q: %w", name, err)
	}
	return l, true, nil
}
