package forge

import (
	"github.com/ethereum/go-ethereum/common"
)

// Perm is what a user may do in a repository, in increasing order.
type Perm int

const (
	PermNone Perm = iota
	// PermRead: see it; open issues and pull requests, comment, review,
	// star, watch, fork. Everyone has it on a public repository.
	PermRead
	// PermWrite: push, open pull requests from its branches, label and
	// assign issues, edit any issue.
	PermWrite
	// PermMaintain: merge, manage labels, close and reopen any issue or
	// pull request, edit the repository's description and default branch.
	PermMaintain
	// PermOwner: everything, including collaborators, protected branches,
	// rename, transfer and delete.
	PermOwner
)

var permNames = []string{"none", "read", "write", "maintain", "owner"}

func (p Perm) String() string {
	if p < 0 || int(p) >= len(permNames) {
		return "none"
	}
	return permNames[p]
}

// ParsePerm reads a collaborator permission: read, write, maintain or none.
// "owner" is not one: ownership moves only by transfer.
func ParsePerm(s string) (Perm, bool) {
	switch s {
	case "none":
		return PermNone, true
	case "read":
		return PermRead, true
	case "write":
		return PermWrite, true
	case "maintain":
		return PermMaintain, true
	}
	return PermNone, false
}

// PermissionOf is what user may do in r, given user's collaborator
// permission on it (PermNone if none): the owner has all; anyone may read
// a public repository.
func PermissionOf(r Repo, user common.Address, collaborator Perm) Perm {
	if user == r.Owner {
		return PermOwner
	}
	p := collaborator
	if !r.Private && p < PermRead {
		p = PermRead
	}
	return p
}

// permission is the actor's permission on r, read from state.
func (s *session) permission(r *Repo, user common.Address) (Perm, error) {
	v, err := s.kv.Get(collabKey(r.ID, user))
	if err != nil {
		return PermNone, err
	}
	collab := PermNone
	if !isNone(v) {
		collab, _ = ParsePerm(string(v))
	}
	// An organization's teams grant on its repositories as a collaborator
	// would; the higher of the two counts.
	team, err := s.orgPermission(r, user)
	if err != nil {
		return PermNone, err
	}
	return PermissionOf(*r, user, max(collab, team)), nil
}

// access loads repository id for the actor and checks they have at least
// need. Someone who may not even read it is told it does not exist, so a
// private repository's existence is never revealed.
func (s *session) access(id uint64, need Perm, what string) (*Repo, Perm, error) {
	r, err := s.repo(id)
	if err != nil {
		return nil, PermNone, err
	}
	p, err := s.permission(r, s.actor)
	if err != nil {
		return nil, PermNone, err
	}
	if p < PermRead {
		return nil, p, notFound("repository %d does not exist", id)
	}
	if p < need {
		return nil, p, forbidden("%s needs %s permission on %s; you have %s", what, need, r.Name, p)
	}
	return r, p, nil
}
