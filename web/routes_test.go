package web

import (
	"errors"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/names"
)

// Every top-level page of the web app is a reserved username: a user who
// held one would have a profile page the app could never show.
func TestEveryTopLevelRouteIsAReservedName(t *testing.T) {
	routes, err := Routes()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range routes {
		seg, _, _ := strings.Cut(strings.TrimPrefix(r.Path, "/"), "/")
		if seg == "" || strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
			continue
		}
		seen++
		if err := names.Validate(seg); !errors.Is(err, names.ErrReserved) {
			t.Errorf("the route /%s (%s) is not a reserved username: %v", seg, r.Screen, err)
		}
	}
	if seen < 40 {
		t.Fatalf("only %d top-level routes read from the route table", seen)
	}
}
