package readdb

import "context"

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
type Scope struct {
	bucket int32 // 1 + the bucket; 0 is no scope
}

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

// readKeys are the generations a read of name in scope s depends on.
func readKeys(name string, s Scope) (genKey, genKey, bool) {
	if s.bucket == 0 {
		return genKey{name, wholeTable}, genKey{}, false
	}
	return genKey{name, unscopedPart}, genKey{name, s.bucket - 1}, true
}

// writeMark is what a write of name in scope s changes, as WriteTx notes it:
// the whole table, or one bucket.
func writeMark(name string, s Scope) genKey {
	if s.bucket == 0 {
		return genKey{name, wholeTable}
	}
	return genKey{name, s.bucket - 1}
}
