package gitstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/gitstore"
)

func TestResolveRefs(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	dir, err := s.Create(ctx, owner, "1", gitstore.CreateOptions{README: []byte("# x\n"),
		Author: gitstore.Signature{Name: "a", Email: "a@example.org", When: time.Unix(1700000000, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	head, err := gitstore.Resolve(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"main", "refs/heads/main", head, head[:7]} {
		if got, err := gitstore.Resolve(ctx, dir, ref); err != nil || got != head {
			t.Errorf("Resolve(%q) = %q, %v; want %s", ref, got, err, head)
		}
	}
	for _, ref := range []string{"--upload-pack=x", "main~1", "main^", "HEAD@{0}", "a..b", "main:README.md", "-", "a b", "x\x00"} {
		if _, err := gitstore.Resolve(ctx, dir, ref); !errors.Is(err, gitstore.ErrInvalidRef) {
			t.Errorf("Resolve(%q) = %v, want ErrInvalidRef", ref, err)
		}
	}
	for _, ref := range []string{"nope", "refs/heads/nope", "0123456789abcdef0123456789abcdef01234567"} {
		if _, err := gitstore.Resolve(ctx, dir, ref); !errors.Is(err, gitstore.ErrRefNotFound) {
			t.Errorf("Resolve(%q) = %v, want ErrRefNotFound", ref, err)
		}
	}
	if _, err := gitstore.Stat(ctx, dir, head, "README.md/x"); !errors.Is(err, gitstore.ErrPathNotFound) {
		t.Errorf("a path under a file: %v", err)
	}
	if gitstore.IsEmpty(dir) {
		t.Error("a repository with a README is empty")
	}
	empty, err := s.Create(ctx, owner, "2", gitstore.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !gitstore.IsEmpty(empty) {
		t.Error("a new repository is not empty")
	}
	if _, err := gitstore.Resolve(ctx, empty, ""); !errors.Is(err, gitstore.ErrRefNotFound) {
		t.Errorf("HEAD of an empty repository: %v", err)
	}
}
