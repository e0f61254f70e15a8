package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/dforge/dforge/internal/index/readdb"
)

// TimelineEvent is one entry of an issue's timeline.
type TimelineEvent struct {
	ID      uint64       `json:"id"`
	Kind    string       `json:"kind"`
	Actor   User         `json:"actor"`
	Comment *Comment     `json:"comment,omitempty"`
	Data    TimelineData `json:"data"`
	Height  int64        `json:"height"`
	Created string       `json:"created"`
	// Signer is the key that signed the action that made the event and
	// Delegation the delegation it acted under ("" when the actor signed
	// it, and both "" for events projected before signers were kept).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

// Timeline lists issue number's timeline in order; deleted comments are
// left out.
func (ix *Index) Timeline(ctx context.Context, repo, number uint64, p Page) ([]TimelineEvent, int64, error) {
	out := []TimelineEvent{}
	// A seek in id order (readdb.SeekPage): a deep page of a long
	// timeline skips the events before it without the actors' join.
	total, err := ix.rd.SeekPage(ctx, `t.id, t.kind, t.actor, `+userExpr("a")+`, COALESCE(t.comment_id, 0), t.data, t.height, t.time_ns,
		COALESCE(c.body, ''), COALESCE(c.updated_time_ns, c.time_ns, 0), t.signer, t.delegation, COALESCE(c.signer, ''), COALESCE(c.delegation, '')`,
		`forge_timeline t LEFT JOIN chain_accounts a ON a.address = t.actor LEFT JOIN forge_comments c ON c.id = t.comment_id`,
		`forge_timeline t LEFT JOIN forge_comments c ON c.id = t.comment_id`,
		"t.repo_id = $1 AND t.number = $2 AND (t.comment_id IS NULL OR c.deleted = FALSE)", readdb.Order{Cols: []string{"t.id"}},
		[]any{int64(repo), int64(number)}, p, func(rows *sql.Rows) error {
			var e TimelineEvent
			var id, comment, ns, updatedNS int64
			var actor, name, data, body, signer, delegation string
			if err := rows.Scan(&id, &e.Kind, &actor, &name, &comment, &data, &e.Height, &ns, &body, &updatedNS,
				&e.Signer, &e.Delegation, &signer, &delegation); err != nil {
				return err
			}
			e.ID, e.Actor, e.Created = uint64(id), user(actor, name), formatTime(ns)
			if err := json.Unmarshal([]byte(data), &e.Data); err != nil {
				return fmt.Errorf("timeline event %d: %w", id, err)
			}
			if comment != 0 {
				e.Comment = &Comment{ID: uint64(comment), Repo: repo, Number: number, Author: e.Actor, Body: body, Height: e.Height,
					Created: e.Created, Updated: formatTime(updatedNS), Signer: signer, Delegation: delegation}
			}
			out = append(out, e)
			return nil
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list the timeline: %w", err)
	}
	return out, total, nil
}
