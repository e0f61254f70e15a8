package repoaccess_test

import (
	"testing"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/repoaccess"
)

func TestZeroIDIsGits(t *testing.T) {
	if repoaccess.ZeroID != gitstore.ZeroID {
		t.Fatalf("repoaccess.ZeroID = %s, gitstore.ZeroID = %s", repoaccess.ZeroID, gitstore.ZeroID)
	}
	up := repoaccess.RefUpdate{Ref: "refs/heads/main", Old: gitstore.ZeroID, New: "1234567890123456789012345678901234567890"}
	if !up.Created() || up.Deleted() {
		t.Fatalf("%+v: Created %v, Deleted %v", up, up.Created(), up.Deleted())
	}
}

func TestLevelsAreOrdered(t *testing.T) {
	if !(repoaccess.None < repoaccess.Read && repoaccess.Read < repoaccess.Write && repoaccess.Write < repoaccess.Admin) {
		t.Fatal("access levels out of order")
	}
}
