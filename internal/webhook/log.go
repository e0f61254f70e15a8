package webhook

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Delivery is one entry of a hook's log: the request as sent and the
// receiver's answer, or why there was none.
type Delivery struct {
	ID              int64
	HookID          int64
	UUID            string
	Event           string
	EventType       string
	State           string // pending, delivered, failed
	Attempts        int
	Height          int64
	RequestURL      string
	RequestHeaders  map[string]string
	RequestBody     string
	ResponseStatus  int
	ResponseHeaders map[string]string
	ResponseBody    string
	Error           string
	Duration        time.Duration
	Created         time.Time
	Delivered       time.Time // the last attempt; zero before one
	Next            time.Time // the next attempt of a pending one
}

const deliveryColumns = `id, hook_id, uuid, event, event_type, state, attempts, height, request_url, request_headers,
	request_body, response_status, response_headers, response_body, error, duration_ms, created_ns, delivered_ns, next_ns`

func scanDelivery(row scanner) (Delivery, error) {
	var d Delivery
	var reqH, respH string
	var ms, created, delivered, next int64
	err := row.Scan(&d.ID, &d.HookID, &d.UUID, &d.Event, &d.EventType, &d.State, &d.Attempts, &d.Height, &d.RequestURL, &reqH,
		&d.RequestBody, &d.ResponseStatus, &respH, &d.ResponseBody, &d.Error, &ms, &created, &delivered, &next)
	if err != nil {
		return d, err
	}
	d.RequestHeaders, d.ResponseHeaders = map[string]string{}, map[string]string{}
	if reqH != "" {
		json.Unmarshal([]byte(reqH), &d.RequestHeaders) // written by headersJSON
	}
	if respH != "" {
		json.Unmarshal([]byte(respH), &d.ResponseHeaders)
	}
	d.Duration, d.Created = time.Duration(ms)*time.Millisecond, time.Unix(0, created).UTC()
	if delivered != 0 {
		d.Delivered = time.Unix(0, delivered).UTC()
	}
	if d.State == "pending" {
		d.Next = time.Unix(0, next).UTC()
	}
	return d, nil
}

// Deliveries is hook id's log, newest first, one page.
func (s *Service) Deliveries(ctx context.Context, sc Scope, id int64, page, limit int) ([]Delivery, int64, error) {
	if _, err := s.Get(ctx, sc, id); err != nil {
		return nil, 0, err
	}
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_deliveries WHERE hook_id = $1`, id).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count deliveries: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE hook_id = $1
		ORDER BY id DESC LIMIT $2 OFFSET $3`, id, limit, (page-1)*limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list deliveries: %w", err)
	}
	defer rows.Close()
	out := []Delivery{}
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("read delivery: %w", err)
		}
		out = append(out, d)
	}
	return out, total, rows.Err()
}

// Delivery is one entry of hook id's log.
func (s *Service) Delivery(ctx context.Context, sc Scope, id, delivery int64) (Delivery, error) {
	if _, err := s.Get(ctx, sc, id); err != nil {
		return Delivery{}, err
	}
	d, err := scanDelivery(s.db.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE hook_id = $1 AND id = $2`, id, delivery))
	if errors.Is(err, sql.ErrNoRows) {
		return Delivery{}, usererr.Missingf("delivery %d of webhook %d does not exist", delivery, id)
	}
	if err != nil {
		return Delivery{}, fmt.Errorf("read delivery %d: %w", delivery, err)
	}
	return d, nil
}

// Redeliver queues a copy of a logged delivery with a new delivery id:
// the same payload, signed with the hook's current secret.
func (s *Service) Redeliver(ctx context.Context, sc Scope, id, delivery int64) (Delivery, error) {
	if _, err := s.Delivery(ctx, sc, id, delivery); err != nil {
		return Delivery{}, err
	}
	var created int64
	now := s.now().UnixNano()
	err := s.db.QueryRowContext(ctx, `INSERT INTO webhook_deliveries (hook_id, uuid, event, event_type, source, height, block_ns,
		state, next_ns, request_body, created_ns) SELECT hook_id, $1, event, event_type, source, height, block_ns, 'pending', $2,
		request_body, $2 FROM webhook_deliveries WHERE id = $3 RETURNING id`, newUUID(), now, delivery).Scan(&created)
	if err != nil {
		return Delivery{}, fmt.Errorf("queue redelivery of %d: %w", delivery, err)
	}
	s.wake()
	return s.Delivery(ctx, sc, id, created)
}

// Test queues a push-shaped delivery of repo's default branch head to
// hook id whatever its events, as Gitea's "test delivery"; sender is who
// asked.
func (s *Service) Test(ctx context.Context, sc Scope, id int64, repo index.Repo, sender common.Address) (Delivery, error) {
	h, err := s.Get(ctx, sc, id)
	if err != nil {
		return Delivery{}, err
	}
	ref := "refs/heads/" + repo.DefaultBranch
	head := forge.ZeroSHA
	if s.render.dirs != nil {
		if dir, err := s.render.dirs.Dir(ctx, repo.ID); err == nil {
			if log, err := gitstore.Log(ctx, dir, ref, gitstore.LogOptions{Limit: 1}); err == nil && len(log) == 1 {
				head = log[0].ID
			}
		}
	}
	// Before is the head too: the commits listed are the head alone.
	up := forge.RefUpdate{Repo: repo.ID, Ref: ref, Old: head, New: head}
	// The repository as the caller saw it, should the projection lose it.
	rec := forge.Repo{ID: repo.ID, Owner: repo.OwnerAddress(), Name: repo.Name, Description: repo.Description,
		DefaultBranch: repo.DefaultBranch, Private: repo.Private, ForkOf: repo.ForkOf}
	src, err := json.Marshal(source{Change: forge.Change{Action: "repo.push", Actor: sender, Refs: []forge.RefUpdate{up}, Repos: []forge.Repo{rec}},
		Ref: ref, TimeNS: s.now().UnixNano(), Test: true})
	if err != nil {
		return Delivery{}, fmt.Errorf("encode test event: %w", err)
	}
	var created int64
	now := s.now().UnixNano()
	err = s.db.QueryRowContext(ctx, `INSERT INTO webhook_deliveries (hook_id, uuid, event, event_type, source, height, block_ns,
		state, next_ns, created_ns) VALUES ($1, $2, 'push', 'push', $3, 0, $4, 'pending', $4, $4) RETURNING id`,
		h.ID, newUUID(), string(src), now).Scan(&created)
	if err != nil {
		return Delivery{}, fmt.Errorf("queue test delivery: %w", err)
	}
	s.wake()
	return s.Delivery(ctx, sc, id, created)
}
