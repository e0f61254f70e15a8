package forge

import (
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Team is a team of an organization: its members get Permission on the
// team's repositories (all of the organization's with IncludesAllRepos).
// Units are the parts of a repository the team is meant for, as in Gitea;
// the forge records them and grants by Permission alone.
type Team struct {
	ID               uint64   `json:"id"`
	Org              uint64   `json:"org"`
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	Permission       string   `json:"permission"`
	Units            []string `json:"units"`
	IncludesAllRepos bool     `json:"includesAllRepos"`
	CanCreateOrgRepo bool     `json:"canCreateOrgRepo"`
	Members          uint64   `json:"members"`
	Deleted          bool     `json:"deleted,omitempty"`
}

// TeamMember is a user joining (On) or leaving a team.
type TeamMember struct {
	Team uint64         `json:"team"`
	Org  uint64         `json:"org"`
	User common.Address `json:"user"`
	On   bool           `json:"on"`
}

// TeamRepo is a repository given to (On) or taken from a team.
type TeamRepo struct {
	Team uint64 `json:"team"`
	Org  uint64 `json:"org"`
	Repo uint64 `json:"repo"`
	On   bool   `json:"on"`
}

// Team permissions, Gitea's access modes. Owner is the Owners team's
// alone; admin maps to the forge's maintain (merge, labels, settings but
// not ownership: transfer and delete stay with the organization's owners).
const (
	TeamRead  = "read"
	TeamWrite = "write"
	TeamAdmin = "admin"
	TeamOwner = "owner"
)

// OwnersTeamName is the name of the team every organization is made with.
const OwnersTeamName = "Owners"

// Limits of a team's fields.
const (
	MaxTeamName        = 255
	MaxTeamDescription = 255
)

// teamUnits are Gitea's repository units a team may name.
var teamUnits = []string{
	"repo.code", "repo.issues", "repo.ext_issues", "repo.wiki", "repo.ext_wiki", "repo.pulls",
	"repo.releases", "repo.projects", "repo.packages", "repo.actions",
}

// TeamPerm is the forge permission a team permission grants.
func TeamPerm(p string) Perm {
	switch p {
	case TeamRead:
		return PermRead
	case TeamWrite:
		return PermWrite
	case TeamAdmin:
		return PermMaintain
	case TeamOwner:
		return PermOwner
	}
	return PermNone
}

func teamKey(id uint64) []byte { return key([]byte("team"), u64(id)) }
func teamNameKey(org uint64, lower string) []byte {
	return key([]byte("teamname"), u64(org), []byte(lower))
}
func teamMemberKey(team uint64, user common.Address) []byte {
	return key([]byte("teammember"), u64(team), user.Bytes())
}
func repoTeamsKey(repo uint64) []byte { return key([]byte("repoteams"), u64(repo)) }

// TeamCreate is the payload of team.create.
type TeamCreate struct {
	Org              uint64   `json:"org"`
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	Permission       string   `json:"permission"`
	Units            []string `json:"units"`
	IncludesAllRepos bool     `json:"includesAllRepos"`
	CanCreateOrgRepo bool     `json:"canCreateOrgRepo"`
}

// TeamEdit is the payload of team.edit; absent fields stay as they are.
type TeamEdit struct {
	Team             uint64    `json:"team"`
	Name             *string   `json:"name"`
	Description      *string   `json:"description"`
	Permission       *string   `json:"permission"`
	Units            *[]string `json:"units"`
	IncludesAllRepos *bool     `json:"includesAllRepos"`
	CanCreateOrgRepo *bool     `json:"canCreateOrgRepo"`
}

// TeamRef names a team.
type TeamRef struct {
	Team uint64 `json:"team"`
}

// TeamUser names a team and a user.
type TeamUser struct {
	Team uint64         `json:"team"`
	User common.Address `json:"user"`
}

// TeamRepoRef names a team and a repository.
type TeamRepoRef struct {
	Team uint64 `json:"team"`
	Repo uint64 `json:"repo"`
}

func teamCreate(s *session, payload []byte) error {
	var p TeamCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	o, err := s.ownedOrg(p.Org, "creating a team")
	if err != nil {
		return err
	}
	t := &Team{Org: o.ID, Name: p.Name, Description: p.Description, Permission: p.Permission, Units: p.Units,
		IncludesAllRepos: p.IncludesAllRepos, CanCreateOrgRepo: p.CanCreateOrgRepo}
	if t.Units == nil {
		t.Units = []string{}
	}
	if t.Permission == TeamOwner {
		return invalid("permission", "must be read, write or admin: only the %s team owns", OwnersTeamName)
	}
	return s.createTeam(o, t)
}

// createTeam checks t, gives it the next id and claims its name.
func (s *session) createTeam(o *Org, t *Team) error {
	if err := checkTeamFields(t); err != nil {
		return err
	}
	if err := s.claimTeamName(o, t.Name, 0); err != nil {
		return err
	}
	id, err := s.nextID("team")
	if err != nil {
		return err
	}
	t.ID = id
	if err := s.kv.Set(teamNameKey(o.ID, strings.ToLower(t.Name)), u64(id)); err != nil {
		return err
	}
	return s.saveTeam(t)
}

func checkTeamFields(t *Team) error {
	if t.Name == "" || len(t.Name) > MaxTeamName || strings.IndexFunc(t.Name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) >= 0 {
		return invalid("name", "must be 1 to %d letters, digits, '-', '_' and '.'", MaxTeamName)
	}
	if err := validateText("description", t.Description, MaxTeamDescription); err != nil {
		return err
	}
	if TeamPerm(t.Permission) == PermNone {
		return invalid("permission", "must be read, write or admin")
	}
	if len(t.Units) > len(teamUnits) {
		return invalid("units", "may list at most %d units", len(teamUnits))
	}
	for _, u := range t.Units {
		if !slices.Contains(teamUnits, u) {
			return invalid("units", "names %q, which is not a unit (%s)", u, strings.Join(teamUnits, ", "))
		}
	}
	if u, dup := firstDuplicate(t.Units); dup {
		return invalid("units", "lists %q twice", u)
	}
	return nil
}

// claimTeamName checks org o has no other team called name (any case).
func (s *session) claimTeamName(o *Org, name string, self uint64) error {
	id, err := s.getID(teamNameKey(o.ID, strings.ToLower(name)))
	if err != nil {
		return err
	}
	if id != 0 && id != self {
		return tx.NewError(tx.CodeNameTaken, "%s already has a team named %q", o.Name, name)
	}
	return nil
}

func teamEdit(s *session, payload []byte) error {
	var p TeamEdit
	if err := decode(payload, &p); err != nil {
		return err
	}
	t, o, err := s.ownedTeam(p.Team, "editing a team")
	if err != nil {
		return err
	}
	oldName := t.Name
	if t.ID == o.OwnersTeam && (p.Name != nil || p.Permission != nil || p.IncludesAllRepos != nil || p.CanCreateOrgRepo != nil) {
		return forbidden("the %s team keeps its name and its rights; only its description and units change", OwnersTeamName)
	}
	if p.Name != nil {
		t.Name = *p.Name
	}
	if p.Description != nil {
		t.Description = *p.Description
	}
	if p.Permission != nil {
		if *p.Permission == TeamOwner {
			return invalid("permission", "must be read, write or admin: only the %s team owns", OwnersTeamName)
		}
		t.Permission = *p.Permission
	}
	if p.Units != nil {
		t.Units = slices.Clone(*p.Units)
		if t.Units == nil {
			t.Units = []string{}
		}
	}
	if p.IncludesAllRepos != nil {
		t.IncludesAllRepos = *p.IncludesAllRepos
	}
	if p.CanCreateOrgRepo != nil {
		t.CanCreateOrgRepo = *p.CanCreateOrgRepo
	}
	if err := checkTeamFields(t); err != nil {
		return err
	}
	if !strings.EqualFold(t.Name, oldName) {
		if err := s.claimTeamName(o, t.Name, t.ID); err != nil {
			return err
		}
		if err := s.kv.Set(teamNameKey(o.ID, strings.ToLower(oldName)), none); err != nil {
			return err
		}
		if err := s.kv.Set(teamNameKey(o.ID, strings.ToLower(t.Name)), u64(t.ID)); err != nil {
			return err
		}
	}
	return s.saveTeam(t)
}

// teamDelete deletes a team other than Owners. Its members' lists of teams
// keep its id; a deleted team grants nothing.
func teamDelete(s *session, payload []byte) error {
	var p TeamRef
	if err := decode(payload, &p); err != nil {
		return err
	}
	t, o, err := s.ownedTeam(p.Team, "deleting a team")
	if err != nil {
		return err
	}
	if t.ID == o.OwnersTeam {
		return forbidden("the %s team cannot be deleted", OwnersTeamName)
	}
	if err := s.kv.Set(teamNameKey(o.ID, strings.ToLower(t.Name)), none); err != nil {
		return err
	}
	t.Deleted = true
	return s.saveTeam(t)
}

func teamMemberAdd(s *session, payload []byte) error    { return teamMemberSet(s, payload, true) }
func teamMemberRemove(s *session, payload []byte) error { return teamMemberSet(s, payload, false) }

func teamMemberSet(s *session, payload []byte, on bool) error {
	var p TeamUser
	if err := decode(payload, &p); err != nil {
		return err
	}
	t, _, err := s.ownedTeam(p.Team, "changing a team's members")
	if err != nil {
		return err
	}
	if err := s.checkOwnersChange(t); err != nil {
		return err
	}
	if p.User == (common.Address{}) {
		return invalid("user", "must be an address")
	}
	if o, err := s.orgAt(p.User); err != nil {
		return err
	} else if o != nil {
		return invalid("user", "is an organization; teams hold users")
	}
	return s.setTeamMember(t, p.User, on)
}

// setTeamMember adds user to t or takes them out; doing it twice changes
// nothing more. The Owners team keeps one member at least.
func (s *session) setTeamMember(t *Team, user common.Address, on bool) error {
	was, err := s.isTeamMember(t.ID, user)
	if err != nil || was == on {
		return err
	}

	teams, err := s.memberTeams(t.Org, user)
	if err != nil {
		return err
	}
	mark := []byte{1}
	if on {
		t.Members++
		teams = append(teams, t.ID)
		slices.Sort(teams)
	} else {
		if err := s.keepAnOwner(t); err != nil {
			return err
		}
		t.Members--
		teams = slices.DeleteFunc(teams, func(id uint64) bool { return id == t.ID })
		mark = none
	}
	if err := s.kv.Set(teamMemberKey(t.ID, user), mark); err != nil {
		return err
	}
	if err := s.putJSON(memberTeamsKey(t.Org, user), teams); err != nil {
		return err
	}
	s.change.TeamMembers = append(s.change.TeamMembers, TeamMember{Team: t.ID, Org: t.Org, User: user, On: on})
	return s.saveTeam(t)
}

// keepAnOwner refuses to take the last member out of an Owners team.
func (s *session) keepAnOwner(t *Team) error {
	o, err := s.org(t.Org)
	if err != nil {
		return err
	}
	if t.ID == o.OwnersTeam && t.Members <= 1 {
		return conflict("%s needs an owner: add another before the last one leaves", o.Name)
	}
	return nil
}

func teamRepoAdd(s *session, payload []byte) error    { return teamRepoSet(s, payload, true) }
func teamRepoRemove(s *session, payload []byte) error { return teamRepoSet(s, payload, false) }

// teamRepoSet gives a repository of the team's organization to the team,
// or takes it back; doing it twice changes nothing more.
func teamRepoSet(s *session, payload []byte, on bool) error {
	var p TeamRepoRef
	if err := decode(payload, &p); err != nil {
		return err
	}
	t, o, err := s.ownedTeam(p.Team, "changing a team's repositories")
	if err != nil {
		return err
	}
	r, err := s.repo(p.Repo)
	if err != nil {
		return err
	}
	if r.Owner != o.Address {
		return conflict("%s does not belong to %s", r.Name, o.Name)
	}
	held, err := s.repoTeams(r.ID)
	if err != nil {
		return err
	}
	if slices.Contains(held, t.ID) == on {
		return nil
	}
	if on {
		held = append(held, t.ID)
		slices.Sort(held)
	} else {
		held = slices.DeleteFunc(held, func(id uint64) bool { return id == t.ID })
	}
	if err := s.putJSON(repoTeamsKey(r.ID), held); err != nil {
		return err
	}
	s.change.TeamRepos = append(s.change.TeamRepos, TeamRepo{Team: t.ID, Org: o.ID, Repo: r.ID, On: on})
	return nil
}

// dropRepoTeams takes r from every team that holds it: it leaves its
// organization.
func (s *session) dropRepoTeams(r *Repo, org uint64) error {
	held, err := s.repoTeams(r.ID)
	if err != nil || len(held) == 0 {
		return err
	}
	for _, id := range held {
		s.change.TeamRepos = append(s.change.TeamRepos, TeamRepo{Team: id, Org: org, Repo: r.ID, On: false})
	}
	return s.kv.Set(repoTeamsKey(r.ID), none)
}

// repoTeams are the ids of the teams that hold repository repo, ascending.
func (s *session) repoTeams(repo uint64) ([]uint64, error) {
	var ids []uint64
	if _, err := s.getJSON(repoTeamsKey(repo), &ids); err != nil {
		return nil, err
	}
	return ids, nil
}

// teamRecord loads a team, deleted or not.
func (s *session) teamRecord(id uint64) (*Team, error) {
	var t Team
	ok, err := s.getJSON(teamKey(id), &t)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 {
		return nil, notFound("team %d does not exist", id)
	}
	return &t, nil
}

// team loads a team that exists.
func (s *session) team(id uint64) (*Team, error) {
	t, err := s.teamRecord(id)
	if err != nil {
		return nil, err
	}
	if t.Deleted {
		return nil, notFound("team %d does not exist", id)
	}
	return t, nil
}

// ownedTeam loads team id and its organization for an action only the
// organization's owners may do.
func (s *session) ownedTeam(id uint64, what string) (*Team, *Org, error) {
	t, err := s.team(id)
	if err != nil {
		return nil, nil, err
	}
	o, err := s.ownedOrg(t.Org, what)
	if err != nil {
		return nil, nil, err
	}
	return t, o, nil
}

func (s *session) isTeamMember(team uint64, user common.Address) (bool, error) {
	v, err := s.kv.Get(teamMemberKey(team, user))
	if err != nil {
		return false, err
	}
	return !isNone(v), nil
}

func (s *session) saveTeam(t *Team) error {
	if err := s.putJSON(teamKey(t.ID), t); err != nil {
		return err
	}
	s.change.Teams = append(s.change.Teams, *t)
	return nil
}

// checkOwnersChange refuses a delegate's change to an Owners team's
// members: who owns an organization is the owners' own signature's to
// change (own-keys rules).
func (s *session) checkOwnersChange(t *Team) error {
	if !s.env.Delegated {
		return nil
	}
	o, err := s.org(t.Org)
	if err != nil {
		return err
	}
	if o.OwnersTeam == t.ID {
		return signatureRequired("changing an organization's owners")
	}
	return nil
}
