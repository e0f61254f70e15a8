package gitrepos

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dforge/dforge/internal/replica"
	"github.com/dforge/dforge/internal/repoaccess"
)

// Replicas reports how copying public repositories from other nodes
// stands (*replica.Replicator).
type Replicas interface {
	Status(id uint64) (replica.Status, bool)
}

// Seeded is the git server's view of the forge on a node that seeds
// public repositories (internal/replica): a clone of one whose git data is still
// on its way is told to come back (the git server's Pending), not that it
// does not exist.
type Seeded struct {
	*Repos
	Replicas Replicas
}

// Pending says why r's git data is not here yet, when it is coming.
func (h Seeded) Pending(_ context.Context, r repoaccess.Repo) (string, bool) {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil || r.Private || h.Replicas == nil {
		return "", false
	}
	s, ok := h.Replicas.Status(id)
	if !ok {
		return "", false
	}
	return PendingMessage(r.Owner+"/"+r.Name, s), true
}

// PendingMessage tells a person that name's git data is on its way.
func PendingMessage(name string, s replica.Status) string {
	switch {
	case s.State == replica.Failed:
		return fmt.Sprintf("The git data of %s is being copied to this node from the node that received it; the last attempt failed (%s) and is retried. Try again in a minute, or clone from another node.", name, s.Error)
	case s.Total > 0:
		return fmt.Sprintf("The git data of %s is being copied to this node (%d of %d refs). Try again in a few seconds.", name, s.Done, s.Total)
	}
	return fmt.Sprintf("The git data of %s is being copied to this node. Try again in a few seconds.", name)
}
