package api

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/dforge/dforge/internal/api/itemjson"
	"github.com/dforge/dforge/internal/index"
)

// EncodeItems is n items encoded as a JSON array, as encoding/json writes
// a slice of them: item i is kept (itemjson) by the key key(i, k) writes,
// which must hold everything shape(i) is made from, so a page read again
// shapes and encodes only the items that changed.
func EncodeItems[T any](a *API, n int, key func(i int, k *itemjson.Key) error, shape func(i int) T) (EncodedJSON[[]T], error) {
	return encodeItems(a.items, n, key, shape)
}

// encodeItems is EncodeItems keeping items in c; with no cache (nil),
// every item is encoded and no key is written.
func encodeItems[T any](c *itemjson.Cache, n int, key func(i int, k *itemjson.Key) error, shape func(i int) T) (EncodedJSON[[]T], error) {
	items := make([][]byte, n)
	var k itemjson.Key
	for i := range n {
		var err error
		if c == nil {
			items[i], err = json.Marshal(shape(i))
		} else {
			k.Reset()
			if err = key(i, &k); err == nil {
				items[i], err = c.Encode(&k, func() any { return shape(i) })
			}
		}
		if err != nil {
			return nil, fmt.Errorf("encode item %d: %w", i, err)
		}
	}
	return EncodedJSON[[]T](itemjson.Array(items)), nil
}

// JSONOf encodes each value a page's items show once, for their keys (a
// page shares one pointer per repository or account; nil encodes null).
type JSONOf[T any] map[*T]string

// Of is v's JSON.
func (m JSONOf[T]) Of(v *T) (string, error) {
	if b, ok := m[v]; ok {
		return b, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode %T for a key: %w", v, err)
	}
	m[v] = string(b)
	return string(b), nil
}

// ActivityKey writes into k everything the feed's item for it is made
// from (Gitea's Activity, internal/api/user): the site's URL, the feed's
// owner (user), every field of it, its actor's name and id, and its
// repository's JSON. TestActivityKeyHoldsEveryField changes each field of
// it and checks that the key changes.
func ActivityKey(r *http.Request, k *itemjson.Key, it index.Activity, repoJSON string, user int64) {
	k.Str("activity")
	k.Str(SiteURL(r))
	k.Int(user)
	k.Int(it.ID)
	k.Str(it.Type)
	PersonKey(r, k, it.Actor)
	k.Uint(it.Repo.ID)
	k.Str(it.Repo.Owner)
	k.Str(it.Repo.Name)
	k.Str(it.Repo.FullName)
	k.Bool(it.Repo.Private)
	k.Uint(it.Number)
	k.Str(it.Title)
	k.Bool(it.IsPull)
	k.Str(it.State)
	k.Str(it.Ref)
	k.Uint(it.CommentID)
	k.Str(it.Content)
	k.Int(it.Height)
	k.Str(it.Time)
	k.Str(repoJSON)
}
