// Package actiontest applies forge actions in tests as the app does, for
// the modules that register actions into the forge's table
// (internal/chain/forum, ...): each action on an overlay flushed only when
// it succeeds, one block height per action, its event read back.
package actiontest

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Accounts the tests act as.
var (
	Owner    = common.HexToAddress("0x1000000000000000000000000000000000000001")
	Maint    = common.HexToAddress("0x2000000000000000000000000000000000000002")
	Writer   = common.HexToAddress("0x3000000000000000000000000000000000000003")
	Reader   = common.HexToAddress("0x4000000000000000000000000000000000000004")
	Stranger = common.HexToAddress("0x5000000000000000000000000000000000000005")
)

// M is a payload written as a map.
type M = map[string]any

// World is a store that actions are applied to.
type World struct {
	T  *testing.T
	St *state.Store
	// Height is the last action's height.
	Height uint64
	// Private applies the actions in a node's private store.
	Private bool
}

// New is an empty world.
func New(t *testing.T) *World { return &World{T: t, St: state.OpenMemory()} }

// WithRole is an empty world where holder holds the community role (a
// forum moderator, an event organizer...).
func WithRole(t *testing.T, holder common.Address, role string) *World {
	w := New(t)
	if err := roles.Set(w.St, holder, role, true); err != nil {
		t.Fatal(err)
	}
	return w
}

// Do applies action by actor and returns its event's Change; a refusal
// must be a stable *tx.Error.
func (w *World) Do(actor common.Address, action string, payload any) (forge.Change, error) {
	w.T.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		w.T.Fatal(err)
	}
	w.Height++
	o := state.NewOverlay(w.St)
	ev, err := forge.Apply(o, forge.Env{Height: w.Height, Private: w.Private}, actor, action, string(raw))
	if err != nil {
		var te *tx.Error
		if !errors.As(err, &te) || te.Message == "" || tx.CodeName(te.Code) == "" {
			w.T.Fatalf("%s: error %v is not a stable rejection", action, err)
		}
		return forge.Change{}, err
	}
	if err := o.Flush(w.St); err != nil {
		w.T.Fatal(err)
	}
	c, err := forge.ParseEvent(ev)
	if err != nil {
		w.T.Fatalf("%s: parse own event: %v", action, err)
	}
	return c, nil
}

// OK applies an action that must succeed.
func (w *World) OK(actor common.Address, action string, payload any) forge.Change {
	w.T.Helper()
	c, err := w.Do(actor, action, payload)
	if err != nil {
		w.T.Fatalf("%s by %s: %v", action, actor.Hex()[:6], err)
	}
	return c
}

// Fails applies an action that must be refused with code.
func (w *World) Fails(code uint32, actor common.Address, action string, payload any) {
	w.T.Helper()
	_, err := w.Do(actor, action, payload)
	if !errors.Is(err, &tx.Error{Code: code}) {
		w.T.Fatalf("%s by %s: got %v, want %s", action, actor.Hex()[:6], err, tx.CodeName(code))
	}
}

// RefusedText fails t unless err is invalid_text naming field (what
// forge.CheckText and the text rules give).
func RefusedText(t *testing.T, err error, field string) {
	t.Helper()
	var te *tx.Error
	if !errors.As(err, &te) || te.Code != tx.CodeInvalidText || te.Name != "invalid_text" || te.Field != field {
		t.Fatalf("got %v, want invalid_text naming %q", err, field)
	}
}

// Team creates Owner's repository x (private when the world is) with
// Maint, Writer and Reader as its maintainer, writer and reader, and
// returns its id.
func (w *World) Team() uint64 {
	w.T.Helper()
	id := w.OK(Owner, "repo.create", M{"name": "x", "description": "the x", "private": w.Private}).Repos[0].ID
	for _, c := range []struct {
		user common.Address
		perm string
	}{{Maint, "maintain"}, {Writer, "write"}, {Reader, "read"}} {
		w.OK(Owner, "repo.collaborator.set", M{"repo": id, "user": c.user, "permission": c.perm})
	}
	return id
}
