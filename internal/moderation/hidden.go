package moderation

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/usererr"
)

// Hide hides t on this node with reason (shown in its place), and
// resolves every open report of t. Hiding it again changes the reason.
func (s *Service) Hide(ctx context.Context, moderator common.Address, t Target, reason string) (Hidden, error) {
	reason, err := checkModReason(reason)
	if err != nil {
		return Hidden{}, err
	}
	h := Hidden{Kind: t.Kind, Key: t.Key, Label: t.Label, Reason: reason, By: moderator, Created: s.now()}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO mod_hidden (kind, target, label, reason, hidden_by, created_ms) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (kind, target) DO UPDATE SET reason = excluded.reason, hidden_by = excluded.hidden_by, created_ms = excluded.created_ms`,
			string(h.Kind), h.Key, h.Label, h.Reason, UserKey(moderator), ms(h.Created)); err != nil {
			return fmt.Errorf("insert hidden: %w", err)
		}
		return s.resolve(ctx, tx, moderator, ActionHidden, reason, "kind = $5 AND target = $6", string(t.Kind), t.Key)
	})
	if err != nil {
		return Hidden{}, err
	}
	s.mu.Lock()
	// A deleted item hidden again stays deleted (the row keeps its mark).
	h.Deleted = s.hidden[hiddenKey{h.Kind, h.Key}].Deleted
	s.hidden[hiddenKey{h.Kind, h.Key}] = h
	s.version++
	s.mu.Unlock()
	return h, nil
}

// DeletedReason is what the hidden list says of an issue its repository's
// admins deleted.
const DeletedReason = "Deleted by the repository's admins."

// Delete removes the issue t from this node on behalf of its repository's
// admin by (the caller checks that by is one): it joins the hidden list,
// marked deleted, so it is 404 here to everyone but the node's admins, who
// may show it again (Unhide). The chain keeps it; other nodes still show it.
func (s *Service) Delete(ctx context.Context, by common.Address, t Target) (Hidden, error) {
	h := Hidden{Kind: t.Kind, Key: t.Key, Label: t.Label, Reason: DeletedReason, By: by, Created: s.now(), Deleted: true}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO mod_hidden (kind, target, label, reason, hidden_by, created_ms, deleted) VALUES ($1, $2, $3, $4, $5, $6, TRUE)
		ON CONFLICT (kind, target) DO UPDATE SET reason = excluded.reason, hidden_by = excluded.hidden_by, created_ms = excluded.created_ms, deleted = TRUE`,
		string(h.Kind), h.Key, h.Label, h.Reason, UserKey(by), ms(h.Created)); err != nil {
		return Hidden{}, fmt.Errorf("insert deleted: %w", err)
	}
	s.mu.Lock()
	s.hidden[hiddenKey{h.Kind, h.Key}] = h
	s.version++
	s.mu.Unlock()
	return h, nil
}

// Unhide shows the item again (404 when it is not hidden).
func (s *Service) Unhide(ctx context.Context, kind Kind, key string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM mod_hidden WHERE kind = $1 AND target = $2`, string(kind), key)
	if err != nil {
		return fmt.Errorf("delete hidden: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return usererr.Missingf("%s %s is not hidden on this node", kind, key)
	}
	s.mu.Lock()
	delete(s.hidden, hiddenKey{kind, key})
	s.version++
	s.mu.Unlock()
	return nil
}

// HiddenList lists the hidden items (of kind, or of every kind when
// empty), newest first, a page of limit from offset, with their count.
func (s *Service) HiddenList(ctx context.Context, kind Kind, limit, offset int) ([]Hidden, int64, error) {
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mod_hidden WHERE $1 = '' OR kind = $1`, string(kind)).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count hidden: %w", err)
	}
	list, err := s.queryHidden(ctx, kind, limit, offset)
	return list, total, err
}

// queryHidden reads hidden items; limit 0 reads all of them.
func (s *Service) queryHidden(ctx context.Context, kind Kind, limit, offset int) ([]Hidden, error) {
	q := `SELECT kind, target, label, reason, hidden_by, created_ms, deleted FROM mod_hidden WHERE $1 = '' OR kind = $1 ORDER BY created_ms DESC, kind, target`
	args := []any{string(kind)}
	if limit > 0 {
		q += ` LIMIT $2 OFFSET $3`
		args = append(args, limit, offset)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("query hidden: %w", err)
	}
	defer rows.Close()
	out := []Hidden{}
	for rows.Next() {
		var h Hidden
		var kind, by string
		var created int64
		if err := rows.Scan(&kind, &h.Key, &h.Label, &h.Reason, &by, &created, &h.Deleted); err != nil {
			return nil, fmt.Errorf("scan hidden: %w", err)
		}
		h.Kind, h.By, h.Created = Kind(kind), common.HexToAddress(by), fromMS(created)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read hidden: %w", err)
	}
	return out, nil
}

// Suspend stops addr from writing through this node, with reason.
func (s *Service) Suspend(ctx context.Context, moderator, addr common.Address, reason string) (Suspension, error) {
	return s.suspend(ctx, moderator, addr, reason, nil)
}

// suspend is Suspend; with rep, it also resolves the open reports of
// rep's target.
func (s *Service) suspend(ctx context.Context, moderator, addr common.Address, reason string, rep *Report) (Suspension, error) {
	reason, err := checkModReason(reason)
	if err != nil {
		return Suspension{}, err
	}
	if addr == (common.Address{}) {
		return Suspension{}, usererr.BadFieldf("address", "no account to suspend")
	}
	if addr == moderator {
		return Suspension{}, usererr.Clashf("conflict", "a moderator cannot suspend themself")
	}
	sp := Suspension{Address: addr, Reason: reason, By: moderator, Created: s.now()}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO mod_suspensions (address, reason, suspended_by, created_ms) VALUES ($1, $2, $3, $4)
			ON CONFLICT (address) DO UPDATE SET reason = excluded.reason, suspended_by = excluded.suspended_by, created_ms = excluded.created_ms`,
			UserKey(addr), reason, UserKey(moderator), ms(sp.Created)); err != nil {
			return fmt.Errorf("insert suspension: %w", err)
		}
		if rep == nil {
			return nil
		}
		return s.resolve(ctx, tx, moderator, ActionSuspended, reason, "kind = $5 AND target = $6", string(rep.Kind), rep.Key)
	})
	if err != nil {
		return Suspension{}, err
	}
	s.mu.Lock()
	s.suspended[addr] = sp
	s.mu.Unlock()
	return sp, nil
}

// Lift lets addr write through this node again (404 when not suspended).
func (s *Service) Lift(ctx context.Context, addr common.Address) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM mod_suspensions WHERE address = $1`, UserKey(addr))
	if err != nil {
		return fmt.Errorf("delete suspension: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return usererr.Missingf("%s is not suspended on this node", addr.Hex())
	}
	s.mu.Lock()
	delete(s.suspended, addr)
	s.mu.Unlock()
	return nil
}

// Suspensions lists the suspended accounts, newest first.
func (s *Service) Suspensions(ctx context.Context) ([]Suspension, error) {
	return s.querySuspensions(ctx)
}

func (s *Service) querySuspensions(ctx context.Context) ([]Suspension, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT address, reason, suspended_by, created_ms FROM mod_suspensions ORDER BY created_ms DESC, address`)
	if err != nil {
		return nil, fmt.Errorf("query suspensions: %w", err)
	}
	defer rows.Close()
	out := []Suspension{}
	for rows.Next() {
		var sp Suspension
		var addr, by string
		var created int64
		if err := rows.Scan(&addr, &sp.Reason, &by, &created); err != nil {
			return nil, fmt.Errorf("scan suspension: %w", err)
		}
		sp.Address, sp.By, sp.Created = common.HexToAddress(addr), common.HexToAddress(by), fromMS(created)
		out = append(out, sp)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read suspensions: %w", err)
	}
	return out, nil
}

// ParseKey checks that key has the shape of kind's keys, for the admin
// routes that name one in their path.
func ParseKey(kind Kind, key string) bool {
	switch kind {
	case KindUser:
		return common.IsHexAddress(key)
	case KindRepository, KindForumPost:
		return key != "" && strings.Trim(key, "0123456789") == ""
	default:
		a, b, ok := strings.Cut(key, ":")
		return ok && a != "" && b != "" && strings.Trim(a+b, "0123456789") == ""
	}
}
