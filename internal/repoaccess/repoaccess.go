// Package repoaccess is what a git transport and the forge agree on about
// a repository: which one a path names (Repo), what a push changes
// (RefUpdate) and how much a person may do in it (Level), decided in one
// place, as soft-serve's access levels are. It imports nothing of dForge,
// so the forge (gitrepos) serves the git server without depending on it.
package repoaccess

// Repo is a repository as the git server needs it.
type Repo struct {
	ID            string
	Owner         string // the owner's name as the forge shows it
	Name          string
	Path          string // the bare repository on disk (gitstore)
	Private       bool
	DefaultBranch string
}

// ZeroID is the object id git uses for "no object" (gitstore.ZeroID).
const ZeroID = "0000000000000000000000000000000000000000"

// RefUpdate is one ref change of a push. Old is ZeroID when the ref is
// created, New when it is deleted. Forced is set for a deletion and for
// an update that is not a fast-forward (Old is not an ancestor of New).
type RefUpdate struct {
	Ref    string `json:"ref"`
	Old    string `json:"old"`
	New    string `json:"new"`
	Forced bool   `json:"forced"`
}

// Created reports whether the update creates the ref.
func (u RefUpdate) Created() bool { return u.Old == ZeroID }

// Deleted reports whether the update deletes the ref.
func (u RefUpdate) Deleted() bool { return u.New == ZeroID }

// Level is how much someone may do in a repository, lowest first.
type Level int

const (
	None  Level = iota // may not know the repository exists
	Read               // may clone and fetch
	Write              // may push
	Admin              // may also change its settings (the owner)
)

func (l Level) String() string {
	switch l {
	case Read:
		return "read"
	case Write:
		return "write"
	case Admin:
		return "admin"
	}
	return "none"
}
