package repo

import (
	"context"
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/replica"
)

// The states GET /repos/{owner}/{repo}/replication answers besides the
// replicator's own (replica.Ready, replica.Replicating, replica.Failed).
const (
	// notSeeded: a public repository this node neither seeds nor holds.
	notSeeded = "not_seeded"
	// privateRepo: a private repository, which never replicates.
	privateRepo = "private"
)

// replicaNodeJSON names the node that answers.
type replicaNodeJSON struct {
	// Operator is this node's operator address (EIP-55), as the node
	// registry lists it.
	Operator string `json:"operator"`
	// URL is this node's public origin.
	URL string `json:"url"`
}

// replicaStateJSON is how one node holds a repository's git data.
type replicaStateJSON struct {
	Node replicaNodeJSON `json:"node"`
	// State is one of ready (its git data is here), replicating (on its
	// way), failed (the last attempt failed and is retried), not_seeded
	// (this node neither seeds nor holds it) or private (never replicated).
	State string `json:"state"`
	// RefsDone is how many of RefsTotal refs are at the chain's values:
	// while replicating, of the refs this run moves; otherwise of all the
	// chain's refs.
	RefsDone int `json:"refs_done"`
	// RefsTotal is how many refs RefsDone counts from.
	RefsTotal int `json:"refs_total"`
	// Error is why the last attempt failed (state failed).
	Error string `json:"error,omitempty"`
	// Heads maps each of the chain's refs this node holds to the commit
	// it holds for it.
	Heads map[string]string `json:"heads"`
	// MatchesChain is true when every ref of the chain is here at the
	// chain's value.
	MatchesChain bool `json:"matches_chain"`
}

// getReplication says how this node holds a repository: whether its git
// data is here, on its way (refs done of total) or not seeded, and the
// heads it holds for the chain's refs. Any origin may read it (CORS), so
// the app on one node can ask every registered node.
func (a *Handler) getReplication(w http.ResponseWriter, r *http.Request) error {
	// Public data, read by other nodes' apps without credentials; set
	// before any error so a browser can read a 404 too.
	w.Header().Set("Access-Control-Allow-Origin", "*")
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	out, err := a.replicaState(r.Context(), rec)
	if err != nil {
		return err
	}
	out.Node = replicaNodeJSON{Operator: a.Forge.Operator().Hex(), URL: api.SiteURL(r)}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

// replicaState compares the refs this node holds for rec with the
// chain's and says where its replication stands.
func (a *Handler) replicaState(ctx context.Context, rec index.Repo) (replicaStateJSON, error) {
	out := replicaStateJSON{Heads: map[string]string{}}
	if rec.Private {
		out.State = privateRepo
		return out, nil
	}
	// 1. The refs as the chain has them, and as they are here.
	var chainRefs []index.ChainRef
	if a.Index != nil {
		var err error
		if chainRefs, err = a.Index.ChainRefs(ctx, rec.ID); err != nil {
			return out, err
		}
	}
	hasGit := a.Hosting.HasGit(rec)
	held := map[string]string{}
	if hasGit {
		dir, err := a.Hosting.Dir(rec)
		if err != nil {
			return out, err
		}
		refs, err := gitstore.Refs(ctx, dir)
		if err != nil {
			return out, fmt.Errorf("list the refs of repository %d: %w", rec.ID, err)
		}
		for _, ref := range refs {
			held[ref.Name] = ref.ID
		}
	}
	// 2. Which of the chain's refs are here at its values.
	out.MatchesChain = hasGit
	for _, c := range chainRefs {
		id, ok := held[c.Ref]
		if c.SHA == gitstore.ZeroID { // deleted on chain
			if ok {
				out.MatchesChain = false
			}
			continue
		}
		out.RefsTotal++
		if ok {
			out.Heads[c.Ref] = id
		}
		if id == c.SHA {
			out.RefsDone++
		} else {
			out.MatchesChain = false
		}
	}
	// 3. The state: the replicator's while it works on rec, else whether
	// the git data is here.
	s, seeded := a.Replication(rec)
	switch {
	case seeded && (s.State != replica.Ready || !hasGit):
		out.State, out.RefsDone, out.RefsTotal, out.Error = s.State, s.Done, s.Total, s.Error
		if out.State == replica.Ready {
			out.State = replica.Replicating
		}
	case hasGit:
		out.State = replica.Ready
	default:
		out.State = notSeeded
	}
	return out, nil
}
