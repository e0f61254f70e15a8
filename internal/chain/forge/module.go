package forge

import (
	"fmt"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/state"
)

// The seam for sibling modules (internal/chain/forum, ...): a module owns
// its actions' payloads, handlers, state keys and rules in its own
// package, and Register puts each action into this package's one actions
// table, so every forge action is still one transaction kind, applied by
// ApplyChange and given one Forge event. The records a module's actions
// put in the event stay here, in Change, whose JSON is the event's bytes.
//
// A module registers in its package's init; internal/chain/app imports
// every module (modules.go), and a test there fails when an action its
// README documents has no handler, so a forgotten import cannot silently
// drop actions.

// Handler applies one action's payload in a module outside this package.
type Handler func(s *Session, payload []byte) error

// Session is one action being applied, as a module sees it: the store,
// where and by whom, and the event being built. It is only valid during
// the handler's call.
type Session struct{ s *session }

// KV is the store the action reads and writes.
func (x *Session) KV() state.KV { return x.s.kv }

// Env is where the action is applied.
func (x *Session) Env() Env { return x.s.env }

// Actor is the account acting.
func (x *Session) Actor() common.Address { return x.s.actor }

// Change is the action's event being built: the handler sets its records.
func (x *Session) Change() *Change { return &x.s.change }

// GetJSON reads key k into dst; false when it was never written or was
// released.
func (x *Session) GetJSON(k []byte, dst any) (bool, error) { return x.s.getJSON(k, dst) }

// PutJSON writes v as JSON under key k.
func (x *Session) PutJSON(k []byte, v any) error { return x.s.putJSON(k, v) }

// NextID gives the next id of the chain-wide (or store-wide) sequence
// kind, kept under forge/seq/<kind>; a private store's start at
// PrivateIDBase.
func (x *Session) NextID(kind string) (uint64, error) { return x.s.nextID(kind) }

// applied says an action has been applied: the table is then closed.
var applied atomic.Bool

// Register adds action name, whose payload type is payload's (a zero
// value; its handler decodes it), to the actions table. It must be called
// before any action is applied (from a module's init) and panics on a
// name already taken, so the table is the same whatever the order of
// registration.
func Register(name string, payload Action, apply Handler) {
	if applied.Load() {
		panic(fmt.Sprintf("forge: action %q registered after actions were applied", name))
	}
	if payload.ActionName() != name {
		panic(fmt.Sprintf("forge: action %q registered with the payload of %q", name, payload.ActionName()))
	}
	if _, ok := actions[name]; ok {
		panic(fmt.Sprintf("forge: action %q registered twice", name))
	}
	actions[name] = action{payload: payload, apply: func(s *session, p []byte) error { return apply(&Session{s}, p) }}
}

// Decode reads a payload strictly, as this package's own actions do: one
// JSON object of the action's fields, nothing unknown, nothing after it,
// every string held to the text rules.
func Decode(payload []byte, dst any) error { return decode(payload, dst) }

// StateKey is the state key forge/<part>/<part>...: the modules keep their
// records under forge/ as they did when they were part of this package.
func StateKey(parts ...[]byte) []byte { return key(parts...) }

// ValidateTitle holds a title to 1..MaxTitle characters of valid UTF-8,
// not only spaces (invalid_field naming "title").
func ValidateTitle(title string) error { return validateTitle(title) }

// The rejections, each a *tx.Error with a stable code.

// NotFound is a not_found rejection.
func NotFound(format string, args ...any) error { return notFound(format, args...) }

// Forbidden is a forbidden rejection.
func Forbidden(format string, args ...any) error { return forbidden(format, args...) }

// Conflict is a conflict rejection.
func Conflict(format string, args ...any) error { return conflict(format, args...) }

// Invalid is an invalid_field rejection naming field.
func Invalid(field, format string, args ...any) error { return invalid(field, format, args...) }

// ValidateText bounds a body or description: valid UTF-8 of at most most
// bytes (invalid_field naming field).
func ValidateText(field, s string, most int) error { return validateText(field, s, most) }

// MaxTime bounds a time in a record (Unix seconds): the year 9999, past
// which no client's date type reads it back.
const MaxTime = maxDue

// GetID reads an id kept under key k (8-byte big-endian); 0 for a key
// never written or released.
func (x *Session) GetID(k []byte) (uint64, error) { return x.s.getID(k) }

// Access loads repository id for the actor, who must hold need on it (what
// names the attempt in the refusal), and returns it with the actor's
// permission.
func (x *Session) Access(id uint64, need Perm, what string) (*Repo, Perm, error) {
	return x.s.access(id, need, what)
}

// None is the value of a released key: the store has no delete, and
// values must not be empty.
func None() []byte { return []byte{0} }

// IsNone reports whether v is a released key's value or missing.
func IsNone(v []byte) bool { return isNone(v) }
