package forge

import (
	"errors"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// Organizations, as Gitea models them: an account that owns repositories
// and has no key. Its members are the members of its teams; the Owners
// team, made with the organization, holds everything. An organization's
// name is a username (package names), so it never clashes with a user's,
// and repositories name it as their owner by its address, OrgAddress(id),
// which no one can sign for.

// Org is an organization.
type Org struct {
	ID          uint64         `json:"id"`
	Address     common.Address `json:"address"`
	Name        string         `json:"name"`
	FullName    string         `json:"fullName"`
	Description string         `json:"description"`
	Website     string         `json:"website"`
	Location    string         `json:"location"`
	Visibility  string         `json:"visibility"`
	// OwnersTeam is the team whose members own the organization.
	OwnersTeam uint64 `json:"ownersTeam"`
	// Repos counts the repositories it owns: one that owns any is not
	// deleted.
	Repos         uint64 `json:"repos"`
	Deleted       bool   `json:"deleted,omitempty"`
	CreatedHeight uint64 `json:"createdHeight"`
	UpdatedHeight uint64 `json:"updatedHeight"`
}

// Limits of an organization's fields (Gitea's).
const (
	MaxOrgFullName    = 100
	MaxOrgDescription = 255
	MaxOrgWebsite     = 255
	MaxOrgLocation    = 50
)

// VisibilityPublic is the one visibility the chain knows: everything on it
// is public. Gitea's "limited" and "private" would need the node-local
// store, which has no organizations.
const VisibilityPublic = "public"

// OrgAddress is the address organization id owns repositories by: a hash,
// so no key signs for it and no account already has it.
func OrgAddress(id uint64) common.Address {
	return common.BytesToAddress(crypto.Keccak256([]byte("dforge/org/"), u64(id))[12:])
}

func orgKey(id uint64) []byte            { return key([]byte("org"), u64(id)) }
func orgAddrKey(a common.Address) []byte { return key([]byte("orgaddr"), a.Bytes()) }
func memberTeamsKey(org uint64, user common.Address) []byte {
	return key([]byte("orgmember"), u64(org), user.Bytes())
}

// OrgCreate is the payload of org.create; the actor becomes its owner.
type OrgCreate struct {
	Name        string `json:"name"`
	FullName    string `json:"fullName"`
	Description string `json:"description"`
	Website     string `json:"website"`
	Location    string `json:"location"`
	Visibility  string `json:"visibility"`
}

// OrgUpdate is the payload of org.update; absent fields stay as they are.
type OrgUpdate struct {
	Org         uint64  `json:"org"`
	FullName    *string `json:"fullName"`
	Description *string `json:"description"`
	Website     *string `json:"website"`
	Location    *string `json:"location"`
	Visibility  *string `json:"visibility"`
}

// OrgRef names an organization.
type OrgRef struct {
	Org uint64 `json:"org"`
}

// OrgMemberRemove is the payload of org.member.remove: the user leaves
// every team of the organization.
type OrgMemberRemove struct {
	Org  uint64         `json:"org"`
	User common.Address `json:"user"`
}

func orgCreate(s *session, payload []byte) error {
	var p OrgCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	o := &Org{Name: p.Name, FullName: p.FullName, Description: p.Description, Website: p.Website,
		Location: p.Location, Visibility: p.Visibility, CreatedHeight: s.env.Height}
	if o.Visibility == "" {
		o.Visibility = VisibilityPublic
	}
	if err := checkOrgFields(o); err != nil {
		return err
	}
	if err := s.checkOrgWebsite(o.Website); err != nil {
		return err
	}
	if s.env.Private {
		return invalid("org", "organizations live on chain, not in a node's private store")
	}
	id, err := s.nextID("org")
	if err != nil {
		return err
	}
	o.ID, o.Address = id, OrgAddress(id)
	// The name is a username: the names module refuses one a user holds.
	if err := names.ValidateIn(s.kv, o.Name); err != nil {
		return tx.NewError(tx.CodeInvalidName, "%s", err.Error())
	}
	if _, err := names.Claim(s.kv, o.Address, o.Name); err != nil {
		if errors.Is(err, names.ErrTaken) {
			return tx.NewError(tx.CodeNameTaken, "the name %q belongs to another user or organization", o.Name)
		}
		return names.TxError(err)
	}
	if err := s.kv.Set(orgAddrKey(o.Address), u64(id)); err != nil {
		return err
	}
	owners := &Team{Org: id, Name: OwnersTeamName, Permission: TeamOwner, IncludesAllRepos: true, CanCreateOrgRepo: true,
		Units: slices.Clone(teamUnits)}
	if err := s.createTeam(o, owners); err != nil {
		return err
	}
	o.OwnersTeam = owners.ID
	if err := s.saveOrg(o); err != nil {
		return err
	}
	return s.setTeamMember(owners, s.actor, true)
}

func checkOrgFields(o *Org) error {
	for _, f := range []struct {
		field, value string
		most         int
	}{
		{"fullName", o.FullName, MaxOrgFullName}, {"description", o.Description, MaxOrgDescription},
		{"website", o.Website, MaxOrgWebsite}, {"location", o.Location, MaxOrgLocation},
	} {
		if err := validateText(f.field, f.value, f.most); err != nil {
			return err
		}
	}
	if o.Visibility != VisibilityPublic {
		return invalid("visibility", "must be %q: everything on chain is public", VisibilityPublic)
	}
	return nil
}

func orgUpdate(s *session, payload []byte) error {
	var p OrgUpdate
	if err := decode(payload, &p); err != nil {
		return err
	}
	o, err := s.ownedOrg(p.Org, "changing an organization's settings")
	if err != nil {
		return err
	}
	for _, f := range []struct {
		dst *string
		src *string
	}{{&o.FullName, p.FullName}, {&o.Description, p.Description}, {&o.Website, p.Website}, {&o.Location, p.Location}, {&o.Visibility, p.Visibility}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	if err := checkOrgFields(o); err != nil {
		return err
	}
	if p.Website != nil {
		if err := s.checkOrgWebsite(o.Website); err != nil {
			return err
		}
	}
	return s.saveOrg(o)
}

// checkOrgWebsite wants an http(s) address or "" from the safe-urls
// upgrade on; before it a website was only bounded, and blocks of that
// time replay so. An org keeps a website it had: only a new one is
// checked.
func (s *session) checkOrgWebsite(w string) error {
	on, err := upgrade.Done(s.kv, upgrade.SafeURLs)
	if err != nil || !on {
		return err
	}
	return validateWebsite("website", w)
}

// orgDelete deletes an organization that owns no repository (Gitea asks
// for them to be moved or deleted first) and frees its name.
func orgDelete(s *session, payload []byte) error {
	var p OrgRef
	if err := decode(payload, &p); err != nil {
		return err
	}
	o, err := s.ownedOrg(p.Org, "deleting an organization")
	if err != nil {
		return err
	}
	if o.Repos > 0 {
		return conflict("%s still owns %d repositories; transfer or delete them first", o.Name, o.Repos)
	}
	// Claiming the default (the one the rules in force give) frees the name.
	def, err := names.DefaultIn(s.kv, o.Address)
	if err != nil {
		return err
	}
	if _, err := names.Claim(s.kv, o.Address, def); err != nil {
		return err
	}
	if err := s.kv.Set(orgAddrKey(o.Address), none); err != nil {
		return err
	}
	o.Deleted = true
	return s.saveOrg(o)
}

// orgMemberRemove takes a user out of every team of an organization: an
// owner removes anyone, a member removes themselves. The last owner stays.
func orgMemberRemove(s *session, payload []byte) error {
	var p OrgMemberRemove
	if err := decode(payload, &p); err != nil {
		return err
	}
	o, err := s.org(p.Org)
	if err != nil {
		return err
	}
	if p.User != s.actor {
		if _, err := s.ownedOrg(p.Org, "removing a member"); err != nil {
			return err
		}
	}
	teams, err := s.memberTeams(o.ID, p.User)
	if err != nil {
		return err
	}
	if member, err := s.isMember(o.ID, p.User); err != nil {
		return err
	} else if !member {
		return notFound("%s is not a member of %s", p.User.Hex(), o.Name)
	}
	var live []*Team
	for _, id := range teams {
		t, err := s.teamRecord(id)
		if err != nil {
			return err
		}
		if t.Deleted {
			continue
		}
		// Removing an owner changes the owners: the owner's own wallet's
		// to sign, as team.member.remove on the Owners team is.
		if err := s.checkOwnersChange(t); err != nil {
			return err
		}
		live = append(live, t)
	}
	for _, t := range live {
		if err := s.setTeamMember(t, p.User, false); err != nil {
			return err
		}
	}
	return s.kv.Set(memberTeamsKey(o.ID, p.User), none)
}

// org loads an organization that exists.
func (s *session) org(id uint64) (*Org, error) {
	var o Org
	ok, err := s.getJSON(orgKey(id), &o)
	if err != nil {
		return nil, err
	}
	if !ok || o.Deleted || id == 0 {
		return nil, notFound("organization %d does not exist", id)
	}
	return &o, nil
}

// orgAt is the organization owning by address a, or nil if a is none's.
func (s *session) orgAt(a common.Address) (*Org, error) {
	id, err := s.getID(orgAddrKey(a))
	if err != nil || id == 0 {
		return nil, err
	}
	return s.org(id)
}

// ownedOrg loads organization id for an action only its owners may do.
func (s *session) ownedOrg(id uint64, what string) (*Org, error) {
	o, err := s.org(id)
	if err != nil {
		return nil, err
	}
	owner, err := s.isTeamMember(o.OwnersTeam, s.actor)
	if err != nil {
		return nil, err
	}
	if !owner {
		return nil, forbidden("%s is for the owners of %s", what, o.Name)
	}
	return o, nil
}

func (s *session) saveOrg(o *Org) error {
	o.UpdatedHeight = s.env.Height
	if err := s.putJSON(orgKey(o.ID), o); err != nil {
		return err
	}
	s.change.Orgs = append(s.change.Orgs, *o)
	return nil
}

// countOrgRepo moves the repository count of the organization owning by
// address owner, if one does.
func (s *session) countOrgRepo(owner common.Address, add bool) error {
	o, err := s.orgAt(owner)
	if err != nil || o == nil {
		return err
	}
	if add {
		o.Repos++
	} else if o.Repos > 0 {
		o.Repos--
	}
	return s.saveOrg(o)
}

// memberTeams are the ids of the teams of org that user is in, ascending.
func (s *session) memberTeams(org uint64, user common.Address) ([]uint64, error) {
	var ids []uint64
	if _, err := s.getJSON(memberTeamsKey(org, user), &ids); err != nil {
		return nil, err
	}
	return ids, nil
}

// isMember says whether user is in a team of org that still exists.
func (s *session) isMember(org uint64, user common.Address) (bool, error) {
	teams, err := s.memberTeams(org, user)
	if err != nil {
		return false, err
	}
	for _, id := range teams {
		t, err := s.teamRecord(id)
		if err != nil {
			return false, err
		}
		if !t.Deleted {
			return true, nil
		}
	}
	return false, nil
}

// orgPermission is what user may do in r, owned by an organization, through
// its teams: owners everything, other teams their permission on the
// repositories they hold (or all, with IncludesAllRepos).
func (s *session) orgPermission(r *Repo, user common.Address) (Perm, error) {
	o, err := s.orgAt(r.Owner)
	if err != nil || o == nil {
		return PermNone, err
	}
	teams, err := s.memberTeams(o.ID, user)
	if err != nil || len(teams) == 0 {
		return PermNone, err
	}
	held, err := s.repoTeams(r.ID)
	if err != nil {
		return PermNone, err
	}
	best := PermNone
	for _, id := range teams {
		t, err := s.teamRecord(id)
		if err != nil {
			return PermNone, err
		}
		if t.Deleted {
			continue
		}
		if t.IncludesAllRepos || slices.Contains(held, t.ID) {
			best = max(best, TeamPerm(t.Permission))
		}
	}
	return best, nil
}

// canCreateOrgRepo says whether the actor may create a repository owned by
// o: an owner, or a member of a team that may.
func (s *session) canCreateOrgRepo(o *Org) (bool, error) {
	teams, err := s.memberTeams(o.ID, s.actor)
	if err != nil {
		return false, err
	}
	for _, id := range teams {
		t, err := s.teamRecord(id)
		if err != nil {
			return false, err
		}
		if !t.Deleted && (t.CanCreateOrgRepo || t.Permission == TeamOwner) {
			return true, nil
		}
	}
	return false, nil
}

// newRepoOwner is the owner of a repository the actor makes: the actor,
// or organization org (when not 0) if the actor may create its
// repositories.
func (s *session) newRepoOwner(org uint64) (common.Address, error) {
	if org == 0 {
		return s.actor, nil
	}
	o, err := s.org(org)
	if err != nil {
		return common.Address{}, err
	}
	if ok, err := s.canCreateOrgRepo(o); err != nil {
		return common.Address{}, err
	} else if !ok {
		return common.Address{}, forbidden("creating a repository of %s needs its owners or a team that may create repositories", o.Name)
	}
	return o.Address, nil
}

// mayTransferTo refuses a transfer to an organization the actor does not
// own (Gitea's rule: one moves repositories only into one's own).
func (s *session) mayTransferTo(newOwner common.Address) error {
	o, err := s.orgAt(newOwner)
	if err != nil || o == nil {
		return err
	}
	owner, err := s.isTeamMember(o.OwnersTeam, s.actor)
	if err != nil {
		return err
	}
	if !owner {
		return forbidden("transferring a repository to %s is for its owners", o.Name)
	}
	return nil
}

// leaveOrg is r leaving its organization, if it has one: deleted or
// transferred away, it is counted no more and no team holds it.
func (s *session) leaveOrg(r *Repo) error {
	o, err := s.orgAt(r.Owner)
	if err != nil || o == nil {
		return err
	}
	if err := s.dropRepoTeams(r, o.ID); err != nil {
		return err
	}
	return s.countOrgRepo(r.Owner, false)
}
