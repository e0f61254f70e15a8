package readdb

import "context"

// Later lets one read depend on tables in scopes known only from its
// rows: a page of notifications joins the issues its threads name, and
// which issues those are is known once the page is read. ScopesLater gives
// a ctx on which reads of the named tables are not noted yet; In then
// notes them in the scopes of the rows read. Until In is called the
// answer depends on those whole tables: a Remember whose Later was never
// settled notes them so (settle), so forgetting In costs re-reads, never a
// stale answer.
type Later struct {
	rec    *recorder
	tables map[string]bool
}

type laterKey struct{}

// ScopesLater is ctx with its reads of tables left for l.In to note.
// Outside a Remember there is nothing to note, and ctx is returned as is.
func ScopesLater(ctx context.Context, tables ...string) (context.Context, *Later) {
	r := recorderOf(ctx)
	if r == nil {
		return ctx, &Later{}
	}
	l := &Later{rec: r, tables: map[string]bool{}}
	for _, t := range tables {
		l.tables[t] = true
	}
	return context.WithValue(ctx, laterKey{}, l), l
}

func laterOf(ctx context.Context) *Later {
	l, _ := ctx.Value(laterKey{}).(*Later)
	return l
}

// leaves tells whether the read of name on l's ctx is left to l.In, and
// marks l pending in its Remember; the caller holds rec.mu.
func (l *Later) leaves(name string) bool {
	if l == nil || !l.tables[name] {
		return false
	}
	if l.rec.pending == nil {
		l.rec.pending = map[*Later]struct{}{}
	}
	l.rec.pending[l] = struct{}{}
	return true
}

// In notes the reads left to l as reads of the rows of the scopes ss
// only, which must be every scope whose rows the reads could have
// returned (every issue a thread names, whether or not it has a row). With
// no scope the reads could return no row: they depend only on the writes
// in no scope.
func (l *Later) In(ss ...Scope) {
	r := l.rec
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.pending[l]; !ok {
		return
	}
	delete(r.pending, l)
	for t := range l.tables {
		if len(ss) == 0 {
			r.tables[genKey{t, unscopedPart}] = struct{}{}
			continue
		}
		addReadKeys(r.tables, t, ss...)
	}
}

// settle notes the reads of every Later of r never given its scopes as
// reads of their whole tables.
func (r *recorder) settle() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for l := range r.pending {
		for t := range l.tables {
			r.tables[genKey{t, wholeTable}] = struct{}{}
		}
	}
	r.pending = nil
}
