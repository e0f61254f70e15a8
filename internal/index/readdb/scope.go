package readdb

import (
	"context"
	"strings"
)

// A Scope names a part of the projection's rows, such as one issue's
// (its row, its labels, its comments), so that a write there does not
// drop the answers read from other parts of the same tables. Without
// scopes every comment on any issue would drop every issue's cached
// answers: each comment writes forge_issues (its count) and
// forge_comments.
//
// The promise each side makes, on the ctx its statements run on
// (InScope):
//   - a write in scope s changes only rows of s;
//   - a read in scope s reads, of every table that some write changes in
//     a scope, only rows of s. What it reads of other tables it may read
//     whole.
//
// The cache then keeps three generations per table (cache.go): the
// table's, moved by every write to it; its unscoped part's, moved by the
// writes that name no scope; and one per bucket of scopes, moved by the
// writes in a scope of that bucket. A read in no scope depends on the
// table's generation; a read in scope s on the unscoped part's and on
// s's bucket's. Scopes are hashed into scopeBuckets buckets, so two
// scopes may share one: that only drops an answer that did not need to
// be dropped.
//
// There are two families of scopes. A user's scope (UserScope) covers only
// the tables whose every row belongs to one account (userTables: a user's
// notifications and their counters); every other scope (NewScope: an
// issue's) covers every other table. A read or a write of a table its
// scope does not cover is a read or a write in no scope: a user's list of
// notifications joins the issues it names, which its user's scope does not
// cover (it tells their scopes through a Later, later.go).
type Scope struct {
	bucket int32 // 1 + the bucket; 0 is no scope
	user   bool  // the scope covers userTables, and only them
}

// userTables are the tables each of whose rows is one account's: a user's
// notification threads, and the counters their triggers keep per user.
var userTables = map[string]bool{"notifications": true, "notification_counts": true}

const scopeBuckets = 4096

// NewScope is the scope of the rows keyed by key (a repository's id and
// an issue's number, say). Equal keys give equal scopes.
func NewScope(key ...uint64) Scope {
	h := uint64(0x9e3779b97f4a7c15)
	for _, k := range key {
		h = mix(h ^ k)
	}
	return Scope{bucket: 1 + int32(h%scopeBuckets)}
}

// UserScope is the scope of one account's rows of userTables, the account
// named by its address (in any case). A block notifies a few
// people; in their scopes it drops only their lists and badges.
func UserScope(address string) Scope {
	h := uint64(0xcbf29ce484222325) // FNV-1a
	for _, c := range []byte(strings.ToLower(address)) {
		h = (h ^ uint64(c)) * 0x100000001b3
	}
	return Scope{bucket: 1 + int32(mix(h)%scopeBuckets), user: true}
}

// covers tells whether s is a scope of name's rows: a read or a write of
// name in a scope that does not cover it is one in no scope.
func (s Scope) covers(name string) bool {
	return s.bucket != 0 && s.user == userTables[name]
}

// mix is SplitMix64's finaliser: every bit of x moves every bit out.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

type scopeKey struct{}

// InScope is ctx with the statements run on it (reads and the projection's
// writes) declared to stay within s, as Scope says.
func InScope(ctx context.Context, s Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

// Unscoped is ctx with no scope: for a read, inside a scoped one, of rows
// outside its scope (the counts of a milestone, say).
func Unscoped(ctx context.Context) context.Context {
	if scopeOf(ctx).bucket == 0 {
		return ctx
	}
	return context.WithValue(ctx, scopeKey{}, Scope{})
}

func scopeOf(ctx context.Context) Scope {
	s, _ := ctx.Value(scopeKey{}).(Scope)
	return s
}

// genKey names one generation the cache keeps: of a table (part
// wholeTable), of its unscoped part, or of one bucket of its scopes
// (part >= 0). name is a table, or a table's hot part (tables.go).
type genKey struct {
	name string
	part int32
}

const (
	wholeTable   int32 = -1
	unscopedPart int32 = -2
)

// addReadKeys adds to keys the generations a read of name in the scopes
// ss together (InScope's one, or those a Later is told) depends on: the
// whole table's, unless every one of ss covers name; then its unscoped
// part's and each of their buckets'.
func addReadKeys(keys map[genKey]struct{}, name string, ss ...Scope) {
	covered := len(ss) > 0
	for _, s := range ss {
		covered = covered && s.covers(name)
	}
	if !covered {
		keys[genKey{name, wholeTable}] = struct{}{}
		return
	}
	keys[genKey{name, unscopedPart}] = struct{}{}
	for _, s := range ss {
		keys[genKey{name, s.bucket - 1}] = struct{}{}
	}
}

// writeMark is what a write of name in scope s changes, as WriteTx notes it:
// the whole table, or one bucket.
func writeMark(name string, s Scope) genKey {
	if !s.covers(name) {
		return genKey{name, wholeTable}
	}
	return genKey{name, s.bucket - 1}
}
