package forge

import (
	"errors"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multihash"

	"github.com/dforge/dforge/internal/chain/rewards"
	"github.com/dforge/dforge/internal/chain/tx"
)

// RepoCreate is the payload of repo.create. On chain Private must be
// false: private repositories live in a node's private store. Whether the
// repository starts with a README is the service's business (git), not
// state's.
type RepoCreate struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	DefaultBranch string `json:"defaultBranch"`
	Private       bool   `json:"private"`
	// Org, when set, is the organization that owns the new repository: the
	// actor must be an owner or in a team that may create repositories.
	Org uint64 `json:"org,omitempty"`
}

// DefaultBranch is the default branch of a repository created without one.
const DefaultBranch = "main"

func repoCreate(s *session, payload []byte) error {
	var p RepoCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	if p.Private && !s.env.Private {
		return invalid("private", "must be false on chain: private repositories are kept node-local")
	}
	if p.DefaultBranch == "" {
		p.DefaultBranch = DefaultBranch
	}
	owner, err := s.newRepoOwner(p.Org)
	if err != nil {
		return err
	}
	r := &Repo{
		Owner: owner, Name: p.Name, Description: p.Description, DefaultBranch: p.DefaultBranch,
		ProtectedBranches: []string{p.DefaultBranch}, Private: s.env.Private, CreatedHeight: s.env.Height,
	}
	return s.createRepo(r)
}

// createRepo checks r's fields and name, gives it the next id and saves it.
func (s *session) createRepo(r *Repo) error {
	if err := checkRepoFields(r); err != nil {
		return err
	}
	if err := s.claimName(r.Owner, r.Name, 0); err != nil {
		return err
	}
	id, err := s.nextID("repo")
	if err != nil {
		return err
	}
	r.ID = id
	if err := s.kv.Set(repoNameKey(r.Owner, strings.ToLower(r.Name)), u64(id)); err != nil {
		return err
	}
	if err := s.saveRepo(r); err != nil {
		return err
	}
	return s.countOrgRepo(r.Owner, true)
}

func checkRepoFields(r *Repo) error {
	if err := ValidateRepoName(r.Name); err != nil {
		return err
	}
	if err := validateText("description", r.Description, MaxDescription); err != nil {
		return err
	}
	if err := validateWebsite("website", r.Website); err != nil {
		return err
	}
	if err := ValidateBranch("defaultBranch", r.DefaultBranch); err != nil {
		return err
	}
	if len(r.ProtectedBranches) > MaxProtected {
		return invalid("protectedBranches", "may list at most %d branches", MaxProtected)
	}
	for _, b := range r.ProtectedBranches {
		if err := ValidateBranch("protectedBranches", b); err != nil {
			return err
		}
	}
	if b, dup := firstDuplicate(r.ProtectedBranches); dup {
		return invalid("protectedBranches", "lists %q twice", b)
	}
	return nil
}

// claimName checks owner has no other repository called name (any case);
// self is the repository being renamed, which may keep its own name.
func (s *session) claimName(owner common.Address, name string, self uint64) error {
	id, err := s.getID(repoNameKey(owner, strings.ToLower(name)))
	if err != nil {
		return err
	}
	if id != 0 && id != self {
		return tx.NewError(tx.CodeNameTaken, "the owner already has a repository named %q", name)
	}
	return nil
}

// RepoUpdate is the payload of repo.update; absent fields stay as they are.
// Maintainers may change the description and default branch; renaming and
// protected branches are the owner's.
type RepoUpdate struct {
	Repo              uint64    `json:"repo"`
	Name              *string   `json:"name"`
	Description       *string   `json:"description"`
	DefaultBranch     *string   `json:"defaultBranch"`
	ProtectedBranches *[]string `json:"protectedBranches"`
	// Website is omitted when nil, so payloads from before it encode as
	// they did.
	Website *string `json:"website,omitempty"`
}

func repoUpdate(s *session, payload []byte) error {
	var p RepoUpdate
	if err := decode(payload, &p); err != nil {
		return err
	}
	need := PermMaintain
	if p.Name != nil || p.ProtectedBranches != nil {
		need = PermOwner
	}
	r, _, err := s.access(p.Repo, need, "changing these settings")
	if err != nil {
		return err
	}
	oldName := r.Name
	if p.Name != nil {
		r.Name = *p.Name
	}
	if p.Description != nil {
		r.Description = *p.Description
	}
	if p.DefaultBranch != nil {
		r.DefaultBranch = *p.DefaultBranch
	}
	if p.Website != nil {
		r.Website = *p.Website
	}
	if p.ProtectedBranches != nil {
		r.ProtectedBranches = slices.Clone(*p.ProtectedBranches)
		if r.ProtectedBranches == nil {
			r.ProtectedBranches = []string{}
		}
	}
	if err := checkRepoFields(r); err != nil {
		return err
	}
	if r.Name != oldName {
		if err := s.moveName(r, r.Owner, oldName); err != nil {
			return err
		}
	}
	return s.saveRepo(r)
}

// moveName releases oldName of oldOwner and claims r's current name for
// r's current owner.
func (s *session) moveName(r *Repo, oldOwner common.Address, oldName string) error {
	if err := s.claimName(r.Owner, r.Name, r.ID); err != nil {
		return err
	}
	if err := s.kv.Set(repoNameKey(oldOwner, strings.ToLower(oldName)), none); err != nil {
		return err
	}
	return s.kv.Set(repoNameKey(r.Owner, strings.ToLower(r.Name)), u64(r.ID))
}

// RepoRef names a repository, for the actions that need nothing else.
type RepoRef struct {
	Repo uint64 `json:"repo"`
}

func repoDelete(s *session, payload []byte) error {
	var p RepoRef
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermOwner, "deleting a repository")
	if err != nil {
		return err
	}
	return s.deleteRepo(r)
}

// deleteRepo deletes r: its name is free again, and its parent, if it
// still exists, counts one fork less.
func (s *session) deleteRepo(r *Repo) error {
	if err := s.kv.Set(repoNameKey(r.Owner, strings.ToLower(r.Name)), none); err != nil {
		return err
	}
	if err := s.dropTransfer(r); err != nil {
		return err
	}
	r.Deleted = true
	if err := s.saveRepo(r); err != nil {
		return err
	}
	if err := s.leaveOrg(r); err != nil {
		return err
	}
	if r.ForkOf == 0 {
		return nil
	}
	parent, err := s.repo(r.ForkOf)
	if errors.Is(err, &tx.Error{Code: tx.CodeNotFound}) {
		return nil
	} else if err != nil {
		return err
	}
	if parent.Forks > 0 {
		parent.Forks--
	}
	return s.saveRepo(parent)
}

// RepoFork is the payload of repo.fork: the fork belongs to the actor and
// takes the source's name unless Name is given.
type RepoFork struct {
	Repo        uint64  `json:"repo"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
	// Org, when set, is the organization the fork belongs to, as for
	// repo.create: its owners and teams that may create repositories.
	Org uint64 `json:"org,omitempty"`
}

func repoFork(s *session, payload []byte) error {
	var p RepoFork
	if err := decode(payload, &p); err != nil {
		return err
	}
	src, _, err := s.access(p.Repo, PermRead, "forking")
	if err != nil {
		return err
	}
	owner, err := s.newRepoOwner(p.Org)
	if err != nil {
		return err
	}
	if src.Owner == owner {
		return conflict("you own %s; a fork needs another owner", src.Name)
	}
	name := p.Name
	if name == "" {
		name = src.Name
	}
	desc := src.Description
	if p.Description != nil {
		desc = *p.Description
	}
	fork := &Repo{
		Owner: owner, Name: name, Description: desc, DefaultBranch: src.DefaultBranch,
		ProtectedBranches: []string{src.DefaultBranch}, Private: s.env.Private, ForkOf: src.ID, CreatedHeight: s.env.Height,
	}
	if err := s.createRepo(fork); err != nil {
		return err
	}
	if src.Private {
		if err := s.addFork(src.ID, fork.ID); err != nil {
			return err
		}
	}
	src.Forks++
	return s.saveRepo(src)
}

// Flags a user sets on a repository.
const (
	flagStar  = "star"
	flagWatch = "watch"
)

// repoFlag stars, unstars, watches or unwatches. Doing it twice is not an
// error (Gitea's API answers both with 204); the counter moves once.
func repoFlag(s *session, payload []byte, kind string, on bool) error {
	var p RepoRef
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermRead, kind)
	if err != nil {
		return err
	}
	k := flagKey(kind, r.ID, s.actor)
	v, err := s.kv.Get(k)
	if err != nil {
		return err
	}
	was := !isNone(v)
	counter := &r.Stars
	if kind == flagWatch {
		counter = &r.Watchers
	}
	switch {
	case on && !was:
		*counter++
		err = s.kv.Set(k, []byte{1})
	case !on && was:
		*counter--
		err = s.kv.Set(k, none)
	}
	if err != nil {
		return err
	}
	flag := &Flag{Repo: r.ID, User: s.actor, On: on}
	if kind == flagStar {
		s.change.Star = flag
	} else {
		s.change.Watch = flag
	}
	return s.saveRepo(r)
}

// CollaboratorSet is the payload of repo.collaborator.set; permission
// "none" removes the collaborator.
type CollaboratorSet struct {
	Repo       uint64         `json:"repo"`
	User       common.Address `json:"user"`
	Permission string         `json:"permission"`
}

func collaboratorSet(s *session, payload []byte) error {
	var p CollaboratorSet
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermOwner, "managing collaborators")
	if err != nil {
		return err
	}
	perm, ok := ParsePerm(p.Permission)
	if !ok {
		return invalid("permission", "must be read, write, maintain or none")
	}
	if p.User == (common.Address{}) {
		return invalid("user", "must be an address")
	}
	if p.User == r.Owner {
		return conflict("the owner has every permission already")
	}
	v := []byte(perm.String())
	if perm == PermNone {
		v = none
	}
	if err := s.kv.Set(collabKey(r.ID, p.User), v); err != nil {
		return err
	}
	s.change.Collaborator = &Collaborator{Repo: r.ID, User: p.User, Permission: perm.String()}
	return s.revokeForks(r, p.User)
}

// RepoPush is the payload of repo.push: the ref updates of one push,
// applied all or none. The node records them before git moves the refs
// (the push is acknowledged once they are in a block), so the chain orders
// pushes: an update applies only if Old is the ref's value on chain (the
// zero id for a ref the chain does not have), and a push that lost a race
// to another node is refused with stale_ref, as git refuses a
// non-fast-forward. Forced says the new commit does not descend from the
// old one (the node asks git); the chain cannot see commits, so it trusts
// the operator for that fact and enforces the rule.
//
// Ref, Old, New and Forced are one update, the form before Updates; blocks
// that hold it still replay. A payload has one form or the other.
type RepoPush struct {
	Repo    uint64      `json:"repo"`
	Updates []RefChange `json:"updates,omitempty"`
	Ref     string      `json:"ref,omitempty"`
	Old     string      `json:"old,omitempty"`
	New     string      `json:"new,omitempty"`
	Forced  bool        `json:"forced,omitempty"`
	// Commits are those this push brought to the default branch whose
	// authors are dForge accounts; each may earn its author a reward.
	Commits []PushCommit `json:"commits,omitempty"`
	// Manifest, when the push brought git objects over 1 MiB, is the CID
	// of the block that maps their ids to their UnixFS files
	// (internal/blocks): a CIDv1, dag-cbor, sha2-256, in its canonical
	// base32 form. The chain checks its form only; a replica reads it to
	// fetch those objects in chunks.
	Manifest string `json:"manifest,omitempty"`
	// Merge, when the push moves a base branch to a pull request's merge,
	// is that pull request's number: a protected branch nobody may push to
	// takes it once the branch's merge requirements are met.
	Merge uint64 `json:"merge,omitempty"`
}

// MaxManifest bounds a manifest CID's length (a CIDv1 of a sha2-256
// digest in base32 is 59 characters).
const MaxManifest = 100

// validateManifest accepts a manifest CID of the one kind a node makes.
func validateManifest(s string) error {
	const want = "must be the CIDv1 (base32) of a dag-cbor sha2-256 block"
	if len(s) > MaxManifest {
		return invalid("manifest", "%s of at most %d characters", want, MaxManifest)
	}
	c, err := cid.Decode(s)
	if err != nil || c.Version() != 1 || c.Type() != cid.DagCBOR || c.String() != s {
		return invalid("manifest", "%s", want)
	}
	if p := c.Prefix(); p.MhType != multihash.SHA2_256 || p.MhLength != 32 {
		return invalid("manifest", "%s", want)
	}
	return nil
}

// RefChange is one ref update of a push.
type RefChange struct {
	Ref    string `json:"ref"`
	Old    string `json:"old"`
	New    string `json:"new"`
	Forced bool   `json:"forced,omitempty"`
}

// MaxPushRefs bounds the ref updates of one repo.push.
const MaxPushRefs = 1000

// changes is the push's updates in either form.
func (p RepoPush) changes() ([]RefChange, error) {
	single := p.Ref != "" || p.Old != "" || p.New != "" || p.Forced
	switch {
	case single && len(p.Updates) > 0:
		return nil, invalid("updates", "cannot be given with ref, old and new")
	case single:
		return []RefChange{{Ref: p.Ref, Old: p.Old, New: p.New, Forced: p.Forced}}, nil
	case len(p.Updates) == 0:
		return nil, invalid("updates", "must list at least one ref update")
	case len(p.Updates) > MaxPushRefs:
		return nil, invalid("updates", "may list at most %d ref updates", MaxPushRefs)
	}
	return p.Updates, nil
}

func repoPush(s *session, payload []byte) error {
	var p RepoPush
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "pushing")
	if err != nil {
		return err
	}
	updates, err := p.changes()
	if err != nil {
		return err
	}
	if p.Manifest != "" {
		if err := validateManifest(p.Manifest); err != nil {
			return err
		}
	}
	// 1. Every update is checked before any is applied.
	seen := make([]string, 0, len(updates))
	for _, u := range updates {
		if err := s.checkRefChange(r, u); err != nil {
			return err
		}
		if err := s.checkRuledPush(r, u, p.Merge); err != nil {
			return err
		}
		if slices.Contains(seen, u.Ref) {
			return invalid("updates", "name %s more than once", u.Ref)
		}
		seen = append(seen, u.Ref)
	}
	// 2. Then they are applied, in the payload's order.
	for _, u := range updates {
		id, err := s.nextID("push")
		if err != nil {
			return err
		}
		if err := s.kv.Set(refKey(r.ID, u.Ref), []byte(u.New)); err != nil {
			return err
		}
		s.change.Refs = append(s.change.Refs, RefUpdate{ID: id, Repo: r.ID, Ref: u.Ref, Old: u.Old, New: u.New, Forced: u.Forced, Manifest: p.Manifest})
	}
	if err := s.addContributor(r, s.actor); err != nil {
		return err
	}
	if err := s.pushedCommits(r, updates, p.Commits); err != nil {
		return err
	}
	return s.saveRepo(r)
}

// checkRefChange checks one update against the rules and the ref's value
// on chain.
func (s *session) checkRefChange(r *Repo, u RefChange) error {
	if err := validateRef(u.Ref); err != nil {
		return err
	}
	if err := validateSHA("old", u.Old); err != nil {
		return err
	}
	if err := validateSHA("new", u.New); err != nil {
		return err
	}
	if u.Old == u.New {
		return invalid("new", "is the same commit as old; nothing changed")
	}
	if branch, ok := strings.CutPrefix(u.Ref, "refs/heads/"); ok && slices.Contains(r.ProtectedBranches, branch) {
		switch {
		case isZeroSHA(u.New):
			return tx.NewError(tx.CodeProtectedBranch, "branch %s of %s is protected and cannot be deleted", branch, r.Name)
		case u.Forced && !isZeroSHA(u.Old):
			return tx.NewError(tx.CodeProtectedBranch, "branch %s of %s is protected: force-pushes are refused", branch, r.Name)
		}
	}
	current, err := s.refValue(r.ID, u.Ref)
	if err != nil {
		return err
	}
	if current != u.Old && !(current == "" && isZeroSHA(u.Old)) {
		if current == "" {
			return tx.NewError(tx.CodeStaleRef, "%s of %s does not exist any more (expected %s)", u.Ref, r.Name, u.Old)
		}
		return tx.NewError(tx.CodeStaleRef, "%s of %s is at %s, not %s: another push moved it first", u.Ref, r.Name, current, u.Old)
	}
	return nil
}

// refValue is the ref's commit on chain; "" for a ref it does not have
// (never pushed, or deleted).
func (s *session) refValue(repo uint64, ref string) (string, error) {
	v, err := s.kv.Get(refKey(repo, ref))
	if err != nil {
		return "", err
	}
	if isNone(v) || isZeroSHA(string(v)) {
		return "", nil
	}
	return string(v), nil
}

// pushedCommits reports the commits a push brought to the default branch.
func (s *session) pushedCommits(r *Repo, updates []RefChange, commits []PushCommit) error {
	if len(commits) == 0 {
		return nil
	}
	toDefault := slices.ContainsFunc(updates, func(u RefChange) bool {
		return u.Ref == "refs/heads/"+r.DefaultBranch && !isZeroSHA(u.New)
	})
	if !toDefault {
		return invalid("commits", "are reported only for a push to the default branch %s", r.DefaultBranch)
	}
	if len(commits) > MaxPushCommits {
		return invalid("commits", "may list at most %d commits", MaxPushCommits)
	}
	seen := make([]string, 0, len(commits))
	for _, c := range commits {
		if err := validateSHA("commits", c.SHA); err != nil || isZeroSHA(c.SHA) {
			return invalid("commits", "sha %q is not a commit id", c.SHA)
		}
		if c.Author == (common.Address{}) {
			return invalid("commits", "author of %s is the zero address", c.SHA)
		}
		if slices.Contains(seen, c.SHA) {
			continue
		}
		seen = append(seen, c.SHA)
		s.contribute(r, rewards.KindCommit, c.Author, 0, c.SHA, "")
	}
	return nil
}
