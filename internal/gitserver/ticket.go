package gitserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
)

// Tickets are the short-lived credentials `git-lfs-authenticate` gives
// over SSH for the HTTP LFS endpoint: git-lfs then sends one as the
// Authorization header of its batch, object and lock requests. A ticket
// names its account, one repository and one operation (download reads,
// upload writes) and lasts TicketTTL; it is signed (HMAC-SHA256) with a
// key this process makes at start and never writes down, so it is good
// on this node only, until it restarts, and nothing need be stored or
// revoked. The git server checks it itself (ServeHTTP) on LFS paths only,
// and the account's access is decided afresh on every request, as for a
// token.

// TicketTTL is how long a ticket lasts.
const TicketTTL = 10 * time.Minute

// ticketPrefix starts every ticket, so Authenticate tells one from an
// access token without checking it.
const ticketPrefix = "dforge-lfs."

type ticket struct {
	Address  string `json:"a"`
	Username string `json:"u"`
	Repo     string `json:"r"` // repoaccess.Repo.ID
	Op       string `json:"o"` // "upload" or "download"
	Expires  int64  `json:"e"` // Unix seconds
}

type tickets struct {
	key []byte
	now func() time.Time
}

func newTickets() tickets {
	key := make([]byte, 32)
	rand.Read(key)
	return tickets{key: key, now: time.Now}
}

// mint is the ticket for user's op on the repository of id repoID, and
// its lifetime.
func (t tickets) mint(user *auth.User, repoID, op string) (string, time.Duration) {
	payload, _ := json.Marshal(ticket{Address: user.Address.Hex(), Username: user.Username, Repo: repoID, Op: op, Expires: t.now().Add(TicketTTL).Unix()})
	body := base64.RawURLEncoding.EncodeToString(payload)
	return ticketPrefix + body + "." + t.sign(body), TicketTTL
}

func (t tickets) sign(body string) string {
	mac := hmac.New(sha256.New, t.key)
	mac.Write([]byte(body))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// check returns the ticket secret stands for, if it is one this process
// signed and it has not expired.
func (t tickets) check(secret string) (ticket, bool) {
	body, sig, ok := strings.Cut(strings.TrimPrefix(secret, ticketPrefix), ".")
	if !ok || !strings.HasPrefix(secret, ticketPrefix) || !hmac.Equal([]byte(sig), []byte(t.sign(body))) {
		return ticket{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	var tk ticket
	if err != nil || json.Unmarshal(raw, &tk) != nil || t.now().Unix() >= tk.Expires || !common.IsHexAddress(tk.Address) {
		return ticket{}, false
	}
	if tk.Op != "upload" && tk.Op != "download" {
		return ticket{}, false
	}
	return tk, true
}

// identity is whom a ticket stands for, at the level of its operation.
func (tk ticket) identity() *auth.Identity {
	scope := auth.ScopeRead
	if tk.Op == "upload" {
		scope = auth.ScopeWrite
	}
	return &auth.Identity{User: auth.User{Address: common.HexToAddress(tk.Address), Username: tk.Username}, Scope: scope}
}

// ticketOf is the ticket an Authorization header carries (Bearer), if any.
func ticketOf(header string) (string, bool) {
	kind, value := authScheme(header)
	if !strings.EqualFold(kind, "Bearer") || !strings.HasPrefix(value, ticketPrefix) {
		return "", false
	}
	return value, true
}

// authScheme splits an Authorization header into its scheme and value.
func authScheme(header string) (kind, value string) {
	kind, value, _ = strings.Cut(strings.TrimSpace(header), " ")
	return kind, strings.TrimSpace(value)
}

type ticketKey struct{}

func withTicket(ctx context.Context, tk ticket) context.Context {
	return context.WithValue(ctx, ticketKey{}, tk)
}

func ticketFrom(ctx context.Context) (ticket, bool) {
	tk, ok := ctx.Value(ticketKey{}).(ticket)
	return tk, ok
}
