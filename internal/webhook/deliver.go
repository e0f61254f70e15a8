package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// maxResponseBody is how much of a receiver's answer the log keeps.
const maxResponseBody = 16 << 10

// pollInterval bounds the wait for work when nothing wakes the worker:
// retries fall due without a wake-up.
const pollInterval = time.Second

// Run delivers queued webhooks until ctx ends: at start, whatever a
// previous run left pending (the queue is in SQL), then each new event as
// the index projects it, and retries as they fall due.
func (s *Service) Run(ctx context.Context) {
	sem := make(chan struct{}, s.workers)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		due, err := s.due(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "read webhook queue", "err", err)
		}
		for _, id := range due {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				s.attempt(ctx, id)
			}()
		}
		if len(due) > 0 {
			continue // more may be due
		}
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		case <-time.After(pollInterval):
		}
	}
}

// due claims the pending deliveries whose time has come and that no
// worker holds, oldest first.
func (s *Service) due(ctx context.Context) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_ns <= $1
		ORDER BY id LIMIT 100`, s.now().UnixNano())
	if err != nil {
		return nil, fmt.Errorf("list due deliveries: %w", err)
	}
	defer rows.Close()
	var out []int64
	s.mu.Lock()
	defer s.mu.Unlock()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read due delivery: %w", err)
		}
		if !s.inflight[id] {
			s.inflight[id] = true
			out = append(out, id)
		}
	}
	return out, rows.Err()
}

// pending is a queued delivery with its hook.
type pending struct {
	id, hookID       int64
	uuid, event, typ string
	src, body        string
	attempts         int
	hook             Hook
}

// attempt tries delivery id once and records the outcome.
func (s *Service) attempt(ctx context.Context, id int64) {
	defer func() {
		s.mu.Lock()
		delete(s.inflight, id)
		s.mu.Unlock()
	}()
	p, err := s.load(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return // its hook was deleted meanwhile
	}
	if err != nil {
		s.log.WarnContext(ctx, "load webhook delivery", "id", id, "err", err)
		return
	}
	payload := []byte(p.body)
	if p.body == "" {
		if payload, err = s.payload(ctx, p); err != nil {
			s.log.WarnContext(ctx, "render webhook payload", "id", id, "event", p.typ, "err", err)
			// Retried like a failed request: a read may fail for a moment.
			s.finish(ctx, p, outcome{err: "render payload: " + err.Error()})
			return
		}
	}
	p.body = string(payload)
	s.finish(ctx, p, s.send(ctx, p, payload))
}

func (s *Service) load(ctx context.Context, id int64) (pending, error) {
	p := pending{id: id}
	err := s.db.QueryRowContext(ctx, `SELECT hook_id, uuid, event, event_type, source, request_body, attempts
		FROM webhook_deliveries WHERE id = $1 AND state = 'pending'`, id).
		Scan(&p.hookID, &p.uuid, &p.event, &p.typ, &p.src, &p.body, &p.attempts)
	if err != nil {
		return p, err
	}
	p.hook, err = scanHook(s.db.QueryRowContext(ctx, `SELECT `+hookColumns+` FROM webhooks WHERE id = $1`, p.hookID))
	return p, err
}

// payload renders p's JSON; finish fixes it in the row with the first
// attempt's outcome, so every later attempt and a redelivery send the
// same bytes.
func (s *Service) payload(ctx context.Context, p pending) ([]byte, error) {
	var src source
	if err := json.Unmarshal([]byte(p.src), &src); err != nil {
		return nil, fmt.Errorf("decode event: %w", err)
	}
	v, err := s.render.render(ctx, p.typ, src)
	if err != nil {
		return nil, err
	}
	body, err := json.MarshalIndent(v, "", "  ") // Gitea indents its payloads
	if err != nil {
		return nil, fmt.Errorf("encode payload: %w", err)
	}
	return body, nil
}

// outcome is one attempt's result.
type outcome struct {
	reqHeaders  http.Header
	status      int
	respHeaders http.Header
	respBody    string
	err         string
	duration    time.Duration
}

func (o outcome) ok() bool { return o.err == "" && o.status >= 200 && o.status < 300 }

// sign is the hex HMAC-SHA256 of payload with secret ("" without one, as
// Gitea).
func sign(secret string, payload []byte) string {
	if secret == "" {
		return ""
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(payload)
	return hex.EncodeToString(mac.Sum(nil))
}

// request builds p's HTTP request with Gitea's and GitHub's headers. A
// form body is payload=<the JSON>; the signature is over the JSON, as
// Gitea signs it.
func (s *Service) request(ctx context.Context, p pending, payload []byte) (*http.Request, error) {
	body, ctype := payload, "application/json"
	if p.hook.ContentType == "form" {
		body, ctype = []byte(url.Values{"payload": {string(payload)}}.Encode()), "application/x-www-form-urlencoded"
	}
	req, err := http.NewRequestWithContext(ctx, p.hook.Method, p.hook.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	sig := sign(p.hook.Secret, payload)
	h := req.Header
	h.Set("Content-Type", ctype)
	h.Set("User-Agent", "dForge-Hookshot")
	h.Set("X-Gitea-Delivery", p.uuid)
	h.Set("X-Gitea-Event", p.event)
	h.Set("X-Gitea-Event-Type", p.typ)
	h.Set("X-Gitea-Signature", sig)
	h.Set("X-GitHub-Delivery", p.uuid)
	h.Set("X-GitHub-Event", p.event)
	h.Set("X-GitHub-Event-Type", p.typ)
	if sig != "" {
		h.Set("X-Hub-Signature-256", "sha256="+sig)
	}
	if p.hook.AuthHeader != "" {
		h.Set("Authorization", p.hook.AuthHeader)
	}
	return req, nil
}

func (s *Service) send(ctx context.Context, p pending, payload []byte) outcome {
	req, err := s.request(ctx, p, payload)
	if err != nil {
		return outcome{err: err.Error()}
	}
	o := outcome{reqHeaders: req.Header.Clone()}
	o.reqHeaders.Del("Authorization") // the log shows it was sent, not what it holds
	if p.hook.AuthHeader != "" {
		o.reqHeaders.Set("Authorization", "(hidden)")
	}
	start := time.Now()
	res, err := s.client.Do(req)
	if err != nil {
		o.err, o.duration = err.Error(), time.Since(start)
		return o
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, maxResponseBody))
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20)) // let the connection be reused
	o.status, o.respHeaders, o.respBody, o.duration = res.StatusCode, res.Header, string(b), time.Since(start)
	if !o.ok() {
		o.err = fmt.Sprintf("the receiver answered %s", res.Status)
	}
	return o
}

func headersJSON(h http.Header) string {
	if h == nil {
		return ""
	}
	flat := map[string]string{}
	for k, v := range h {
		flat[k] = v[0]
	}
	b, _ := json.Marshal(flat)
	return string(b)
}

// finish records an attempt: delivered, pending again after the backoff,
// or failed once the attempts are spent, then trims
// the hook's history.
func (s *Service) finish(ctx context.Context, p pending, o outcome) {
	s.m.attempt(p.event, o)
	now := s.now()
	attempts := p.attempts + 1
	state, next := "failed", int64(0)
	switch {
	case o.ok():
		state = "delivered"
	case attempts < s.attempts:
		state, next = "pending", now.Add(s.retryBase<<(attempts-1)).UnixNano()
	}
	_, err := s.db.ExecContext(ctx, `UPDATE webhook_deliveries SET state = $1, attempts = $2, next_ns = $3, request_url = $4,
		request_headers = $5, response_status = $6, response_headers = $7, response_body = $8, error = $9, duration_ms = $10,
		delivered_ns = $11, request_body = $12 WHERE id = $13`, state, attempts, next, p.hook.URL, headersJSON(o.reqHeaders), o.status,
		headersJSON(o.respHeaders), o.respBody, o.err, o.duration.Milliseconds(), now.UnixNano(), p.body, p.id)
	if err != nil {
		s.log.WarnContext(ctx, "record webhook delivery", "id", p.id, "err", err)
		return
	}
	// Trimming every pruneEvery-th delivery keeps a busy hook's log near
	// maxHistory at a fraction of the writes.
	if state != "pending" && p.id%pruneEvery == 0 {
		s.prune(ctx, p.hookID)
	}
}

// pruneEvery: how often (in delivery ids) finishing a delivery trims its
// hook's log.
const pruneEvery = 10

// prune keeps the newest maxHistory finished deliveries of a hook.
func (s *Service) prune(ctx context.Context, hook int64) {
	_, err := s.db.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE hook_id = $1 AND state <> 'pending' AND id <= (
		SELECT id FROM webhook_deliveries WHERE hook_id = $1 AND state <> 'pending' ORDER BY id DESC LIMIT 1 OFFSET $2)`,
		hook, maxHistory)
	if err != nil {
		s.log.WarnContext(ctx, "trim webhook history", "hook", hook, "err", err)
	}
}
