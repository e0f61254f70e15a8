package forge

import (
	"encoding/binary"
	"slices"

	"github.com/ethereum/go-ethereum/common"
)

// Forks of private repositories, and what becomes of them when someone
// loses read access to one. As on GitHub, that person's forks in the
// repository's fork network are deleted, with the forks made of those (a
// private repository's forks go with it). Every action that can take read
// access away calls revokeForks: removing a collaborator and a transfer
// today, removing a team once there are organizations. Public
// repositories need none of this, everyone reads them, so the chain keeps
// no fork lists.
//
// The service deletes the git data of every repository a change deletes.

// forksKey lists the ids of a private repository's forks in ascending
// order, deleted ones included, so a walk still reaches the forks made of
// a deleted fork.
func forksKey(parent uint64) []byte { return key([]byte("forks"), u64(parent)) }

// forksIndexedKey marks a store whose fork lists hold every fork, those
// made before the lists were kept included.
var forksIndexedKey = key([]byte("forksindexed"))

// forks is the list of parent's forks, ascending.
func (s *session) forks(parent uint64) ([]uint64, error) {
	v, err := s.kv.Get(forksKey(parent))
	if err != nil {
		return nil, err
	}
	if isNone(v) {
		return nil, nil
	}
	ids := make([]uint64, 0, len(v)/8)
	for len(v) >= 8 {
		ids = append(ids, binary.BigEndian.Uint64(v))
		v = v[8:]
	}
	return ids, nil
}

// addFork lists fork under parent, once, keeping the list in order.
func (s *session) addFork(parent, fork uint64) error {
	ids, err := s.forks(parent)
	if err != nil {
		return err
	}
	i, found := slices.BinarySearch(ids, fork)
	if found {
		return nil
	}
	ids = slices.Insert(ids, i, fork)
	v := make([]byte, 0, 8*len(ids))
	for _, id := range ids {
		v = binary.BigEndian.AppendUint64(v, id)
	}
	return s.kv.Set(forksKey(parent), v)
}

// indexForks lists, once per private store, the forks made before fork
// lists were kept: every repository by id, deleted ones too.
func (s *session) indexForks() error {
	if !s.env.Private {
		return nil
	}
	v, err := s.kv.Get(forksIndexedKey)
	if err != nil || !isNone(v) {
		return err
	}
	last, err := s.getID(seqKey("repo"))
	if err != nil {
		return err
	}
	for id := PrivateIDBase + 1; id <= last; id++ {
		var r Repo
		ok, err := s.getJSON(repoKey(id), &r)
		if err != nil {
			return err
		}
		if ok && r.ForkOf != 0 && r.Private {
			if err := s.addFork(r.ForkOf, r.ID); err != nil {
				return err
			}
		}
	}
	return s.kv.Set(forksIndexedKey, []byte{1})
}

// revokeForks deletes user's forks anywhere in parent's fork network, and
// the forks made of them, if user may no longer read parent; otherwise it
// does nothing, so callers call it after any change of access. The walk
// is depth first in id order, so every node deletes the same repositories.
func (s *session) revokeForks(parent *Repo, user common.Address) error {
	if !parent.Private {
		return nil
	}
	if p, err := s.permission(parent, user); err != nil || p >= PermRead {
		return err
	}
	if err := s.indexForks(); err != nil {
		return err
	}
	return s.walkForks(parent.ID, func(f *Repo) (bool, error) {
		if f.Deleted || f.Owner != user {
			return true, nil
		}
		return false, s.deleteTree(f)
	})
}

// deleteTree deletes r and every fork made of it, at any depth.
func (s *session) deleteTree(r *Repo) error {
	if err := s.deleteRepo(r); err != nil {
		return err
	}
	return s.walkForks(r.ID, func(f *Repo) (bool, error) {
		if f.Deleted {
			return true, nil
		}
		return true, s.deleteRepo(f)
	})
}

// walkForks visits root's forks depth first, each list in id order, and
// goes into a fork's own forks when visit says so. Each fork is read when
// visited, so it sees what earlier visits changed. A fork's id is above
// its parent's, so the walk cannot loop.
func (s *session) walkForks(root uint64, visit func(f *Repo) (bool, error)) error {
	stack, err := s.forks(root)
	if err != nil {
		return err
	}
	slices.Reverse(stack)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var f Repo
		ok, err := s.getJSON(repoKey(id), &f)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		deeper, err := visit(&f)
		if err != nil {
			return err
		}
		if !deeper {
			continue
		}
		children, err := s.forks(id)
		if err != nil {
			return err
		}
		slices.Reverse(children)
		stack = append(stack, children...)
	}
	return nil
}
