package store

import (
	"sync"
	"time"
)

// credentials remembers the sessions, access tokens and users that
// signed-in requests resolve, so that the hot path reads none of them from
// the database. On SQLite those reads run on the single writer connection
// and queue behind the projection's block transaction (about 15 ms of a
// write under load); moved to the read pool they took its connections from
// page reads instead.
//
// Every write to sessions, access_tokens, users or user_totp is a method of
// this package, and each calls forget once its statement or transaction
// has committed. A lookup remembers what it read only if no forget happened
// since it began (gen), so a credential revoked, or a profile changed, is
// never served from memory after the write returned.
type credentials struct {
	mu       sync.Mutex
	gen      uint64
	sessions map[string]Session
	tokens   map[string]AccessToken
	users    map[int64]User
}

// credentialsMax bounds each map; a full one starts over.
const credentialsMax = 4096

func newCredentials() *credentials {
	return &credentials{sessions: map[string]Session{}, tokens: map[string]AccessToken{}, users: map[int64]User{}}
}

// generation is what a lookup notes before it reads the database.
func (c *credentials) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// forget drops everything remembered; the writes call it after they commit.
func (c *credentials) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.sessions)
	clear(c.tokens)
	clear(c.users)
}

func (c *credentials) session(hash string) (Session, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	se, ok := c.sessions[hash]
	return se, ok
}

func (c *credentials) token(hash string) (AccessToken, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.tokens[hash]
	return t, ok
}

func (c *credentials) user(id int64) (User, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.users[id]
	return u, ok
}

func (c *credentials) putSession(gen uint64, hash string, se Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen {
		remember(c.sessions, hash, se)
	}
}

func (c *credentials) putToken(gen uint64, hash string, t AccessToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen {
		remember(c.tokens, hash, t)
	}
}

func (c *credentials) putUser(gen uint64, u User) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen {
		remember(c.users, u.ID, u)
	}
}

func remember[K comparable, V any](m map[K]V, k K, v V) {
	if len(m) >= credentialsMax {
		clear(m)
	}
	m[k] = v
}

// touchSession and touchToken move a remembered last-use time, which is
// all a touch changes; forgetting instead would drop every credential once
// a minute per credential in use.
func (c *credentials) touchSession(id int64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	touch(c.sessions, func(se *Session) bool { return se.ID == id }, func(se *Session) { se.LastSeenAt = now })
}

func (c *credentials) touchToken(id int64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	touch(c.tokens, func(t *AccessToken) bool { return t.ID == id }, func(t *AccessToken) { t.LastUsedAt = now })
}

// touch applies set to the entries of m that match picks.
func touch[V any](m map[string]V, picks func(*V) bool, set func(*V)) {
	for k, v := range m {
		if picks(&v) {
			set(&v)
			m[k] = v
		}
	}
}
