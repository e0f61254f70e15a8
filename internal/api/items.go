package api

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/dforge/dforge/internal/api/itemjson"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/moderation"
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
// repository's key (RepoItem.Key). TestActivityKeyHoldsEveryField
// changes each field of it and checks that the key changes.
func ActivityKey(r *http.Request, k *itemjson.Key, it index.Activity, repoKey []byte, user int64) {
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
	k.Blob(repoKey)
}

// RepoItem is a repository as the request's user sees it, for a list
// whose items each show it (notifications, feeds): its JSON, kept
// (itemjson) by everything it is made from, so each repository is encoded
// once per change, and its shape, built only for an item not kept. Its
// git data is read from the disk each time, as RepoJSON reads it.
type RepoItem struct {
	rec  index.Repo
	perm forge.Perm
	git  repoGit
	// JSON is its JSON, and Key what it is kept by: an item that shows
	// the repository writes Key into its own key. A repository offered to
	// a new owner is encoded every time, as its offer is read apart: its
	// Key is then its JSON.
	JSON, Key []byte
	shaped    *RepoJSON
}

// RepoItemOf reads repository id as the request's user sees it; nil when
// they cannot read it.
func (a *API) RepoItemOf(r *http.Request, id uint64) (*RepoItem, error) {
	if a.Forge == nil {
		return nil, nil
	}
	rec, perm, err := a.Forge.RepoByID(r.Context(), ViewerOf(r), id)
	if err != nil {
		return nil, nil // gone, or not the user's to read
	}
	it := &RepoItem{rec: rec, perm: perm, git: a.repoGit(rec)}
	var k itemjson.Key
	if rec.PendingTransfer {
		it.JSON, err = json.Marshal(it.Shape(a, r))
		k.Blob(it.JSON)
	} else {
		a.repoKey(r, &k, rec, perm, it.git)
		it.JSON, err = a.items.Encode(&k, func() any { return it.Shape(a, r) })
	}
	if err != nil {
		return nil, fmt.Errorf("encode repository %d: %w", id, err)
	}
	it.Key = k.Bytes()
	return it, nil
}

// KeyOf is Key; nil for an item without a repository (nil).
func (it *RepoItem) KeyOf() []byte {
	if it == nil {
		return nil
	}
	return it.Key
}

// Shape is the repository as RepoJSON shapes it; nil for an item without
// one (nil).
func (it *RepoItem) Shape(a *API, r *http.Request) *RepoJSON {
	if it == nil {
		return nil
	}
	if it.shaped == nil {
		j := a.repoJSONWith(r, it.rec, it.perm, it.git)
		it.shaped = &j
	}
	return it.shaped
}

// repoKey writes into k everything repoJSONWith(r, rec, perm, g) is made
// from: the site's and SSH's URLs, every field of rec, its owner's name
// and id, perm, g, and the viewer's moderation view of it.
// TestRepoKeyHoldsEveryField changes each field of rec and checks that
// the key changes.
func (a *API) repoKey(r *http.Request, k *itemjson.Key, rec index.Repo, perm forge.Perm, g repoGit) {
	k.Str("repo")
	k.Str(SiteURL(r))
	k.Str(a.sshURL(r, ""))
	k.Uint(rec.ID)
	PersonKey(r, k, rec.Owner)
	k.Str(rec.Name)
	k.Str(rec.Description)
	k.Str(rec.DefaultBranch)
	k.Strs(rec.ProtectedBranches)
	k.Bool(rec.Private)
	k.Uint(rec.ForkOf)
	k.Uint(rec.Stars)
	k.Uint(rec.Forks)
	k.Uint(rec.Watchers)
	k.Uint(rec.OpenIssues)
	k.Uint(rec.OpenPulls)
	k.Int(rec.CreatedHeight)
	k.Str(rec.Created)
	k.Int(rec.UpdatedHeight)
	k.Str(rec.Updated)
	k.Strs(rec.Topics)
	k.Str(rec.Website)
	k.Bool(rec.PendingTransfer)
	k.Str(rec.Signer)
	k.Str(rec.Delegation)
	k.Int(int64(perm))
	k.Bool(g.has)
	k.Bool(g.empty)
	k.Bool(g.replication != nil)
	if s := g.replication; s != nil {
		k.Str(s.State)
		k.Int(int64(s.Done))
		k.Int(int64(s.Total))
		k.Str(s.Error)
	}
	a.ModViewOf(r).hiddenKey(k, moderation.KindRepository, moderation.RepoKey(rec.ID))
}
