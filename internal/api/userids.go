package api

import (
	"context"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/index"
)

// User ids are the index's (index.UserID): an account's number in the
// chain's order once the chain knows it, else this node's local one; never
// read from the address. The converters are plain functions of the
// request, so serve hands them the look-up through the request's context.

type userIDsKey struct{}

// withUserIDs is r with the API's look-up of user ids.
func (a *API) withUserIDs(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), userIDsKey{}, a.addressID))
}

// UserIDOf is addr's user id as the request's API numbers it; 0 outside
// one (or when nobody knows addr).
func UserIDOf(r *http.Request, addr common.Address) int64 {
	lookup, _ := r.Context().Value(userIDsKey{}).(func(context.Context, common.Address) int64)
	if lookup == nil {
		return 0
	}
	return lookup(r.Context(), addr)
}

// addressID is addr's user id from the index; 0 without one, or when the
// read fails (a user shown without an id, rather than no answer).
func (a *API) addressID(ctx context.Context, addr common.Address) int64 {
	if a.Index == nil {
		return 0
	}
	id, err := a.Index.UserID(ctx, addr)
	if err != nil {
		a.Log.Warn("read user id", "address", addr.Hex(), "err", err)
		return 0
	}
	return id
}

// AccountID is u's user id: the index's, else (no index, or an account it
// has not met) the local one of u's row on this node.
func (a *API) AccountID(ctx context.Context, u auth.User) int64 {
	if id := a.addressID(ctx, u.Address); id != 0 {
		return id
	}
	return localID(u)
}

// DefaultName is addr's default name as the chain's rules give it (the
// legacy form on a chain before own-keys); without an index, the wide one.
func (a *API) DefaultName(ctx context.Context, addr common.Address) string {
	if a.Index != nil {
		if name, err := a.Index.DefaultName(ctx, addr); err == nil {
			return name
		}
	}
	return names.Default(addr)
}

// localID is the id of a user only this node knows (index.LocalUserIDBase
// plus its row); 0 for an account that never signed in here.
func localID(u auth.User) int64 {
	if u.ID == 0 {
		return 0
	}
	return index.LocalUserIDBase + u.ID
}
