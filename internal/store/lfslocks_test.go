package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/store"
)

// TestLFSLockTables drives the lock table's SQL on each dialect: one lock
// per path of a repository, filters and paging, deletion.
func TestLFSLockTables(t *testing.T) {
	t.Parallel()
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, s := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			add := func(repo, path string) (store.LFSLock, error) {
				return s.AddLFSLock(ctx, store.LFSLock{RepoID: repo, Path: path, OwnerAddress: "0xa1", OwnerName: "ada", LockedAt: now})
			}
			a, err := add("r1", "a.bin")
			if err != nil || a.ID == 0 {
				t.Fatalf("add: %+v %v", a, err)
			}
			if held, err := add("r1", "a.bin"); !errors.Is(err, store.ErrDuplicate) || held.ID != a.ID || !held.LockedAt.Equal(now) || held.OwnerName != "ada" {
				t.Fatalf("add again: %+v %v", held, err)
			}
			b, _ := add("r1", "b.bin")
			if other, err := add("r2", "a.bin"); err != nil || other.ID == a.ID {
				t.Fatalf("the same path in another repository: %+v %v", other, err)
			}
			for _, c := range []struct {
				f    store.LFSLockFilter
				want []int64
			}{
				{store.LFSLockFilter{RepoID: "r1", Limit: 10}, []int64{a.ID, b.ID}},
				{store.LFSLockFilter{RepoID: "r1", Limit: 1}, []int64{a.ID}},
				{store.LFSLockFilter{RepoID: "r1", After: b.ID, Limit: 10}, []int64{b.ID}},
				{store.LFSLockFilter{RepoID: "r1", Path: "b.bin", Limit: 10}, []int64{b.ID}},
				{store.LFSLockFilter{RepoID: "r1", ID: a.ID, Limit: 10}, []int64{a.ID}},
				{store.LFSLockFilter{RepoID: "r3", Limit: 10}, nil},
			} {
				got, err := s.LFSLocks(ctx, c.f)
				if err != nil || len(got) != len(c.want) {
					t.Fatalf("%+v: %+v %v, want %v", c.f, got, err, c.want)
				}
				for i := range got {
					if got[i].ID != c.want[i] {
						t.Fatalf("%+v: %+v, want %v", c.f, got, c.want)
					}
				}
			}
			if l, ok, err := s.LFSLock(ctx, "r1", b.ID); err != nil || !ok || l.Path != "b.bin" {
				t.Fatalf("lock: %+v %v %v", l, ok, err)
			}
			if _, ok, err := s.LFSLock(ctx, "r2", b.ID); err != nil || ok {
				t.Fatalf("another repository's lock: %v %v", ok, err)
			}
			if ok, err := s.DeleteLFSLock(ctx, "r1", b.ID); err != nil || !ok {
				t.Fatalf("delete: %v %v", ok, err)
			}
			if ok, err := s.DeleteLFSLock(ctx, "r1", b.ID); err != nil || ok {
				t.Fatalf("delete again: %v %v", ok, err)
			}
		})
	}
}
