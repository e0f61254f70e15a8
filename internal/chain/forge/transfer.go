package forge

import (
	"errors"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// Repository transfers. Before the pending-transfers upgrade a transfer
// moved the repository at once, so anyone could hand a repository to a
// user who never asked for it; those blocks replay under that rule
// (transferAtOnce). From the upgrade on, as in Gitea, a transfer is an
// offer kept in state until the recipient accepts or rejects it, or the
// repository's owners cancel it. It is immediate only where the signer
// could have created the repository there anyway: into an organization
// they may create repositories in, or to themselves.

// Transfer states, as a change reports them; state holds pending ones only.
const (
	TransferPending   = "pending"
	TransferAccepted  = "accepted"
	TransferRejected  = "rejected"  // by the recipient
	TransferCancelled = "cancelled" // by the repository's owners or the offer's maker
)

// MaxTransferTeams bounds the teams a transfer into an organization names.
const MaxTransferTeams = 50

// Transfer is an offer of a repository to a new owner.
type Transfer struct {
	Repo      uint64         `json:"repo"`
	Doer      common.Address `json:"doer"`
	Recipient common.Address `json:"recipient"`
	// Teams are teams of the receiving organization that get the
	// repository when it arrives.
	Teams  []uint64 `json:"teams,omitempty"`
	Height uint64   `json:"height"`
	State  string   `json:"state"`
}

func transferKey(repo uint64) []byte { return key([]byte("transfer"), u64(repo)) }

// RepoTransfer is the payload of repo.transfer.
type RepoTransfer struct {
	Repo     uint64         `json:"repo"`
	NewOwner common.Address `json:"newOwner"`
	// Teams is known from pending-transfers on; omitted when empty, so
	// payloads without it encode as before.
	Teams []uint64 `json:"teams,omitempty"`
}

// repoTransferV1 is repo.transfer's payload before pending-transfers:
// the old binary refused a payload naming teams as an unknown field, and
// blocks before the upgrade must still be refused the same way.
type repoTransferV1 struct {
	Repo     uint64         `json:"repo"`
	NewOwner common.Address `json:"newOwner"`
}

// The payloads of repo.transfer.accept and repo.transfer.reject.
type (
	RepoTransferAccept RepoRef
	RepoTransferReject RepoRef
)

// pendingTransfers says whether transfers wait for their recipient. A
// private store is never replayed under old rules (its projection is
// rebuilt from its log of changes), so there they always do.
func (s *session) pendingTransfers() (bool, error) {
	if s.env.Private {
		return true, nil
	}
	return upgrade.Done(s.kv, upgrade.PendingTransfers)
}

func repoTransfer(s *session, payload []byte) error {
	on, err := s.pendingTransfers()
	if err != nil {
		return err
	}
	if !on {
		return transferAtOnce(s, payload)
	}
	var p RepoTransfer
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermOwner, "transferring a repository")
	if err != nil {
		return err
	}
	t := &Transfer{Repo: r.ID, Doer: s.actor, Recipient: p.NewOwner, Teams: p.Teams, Height: s.env.Height, State: TransferPending}
	org, err := s.checkTransfer(r, t)
	if err != nil {
		return err
	}
	direct := t.Recipient == s.actor
	if org != nil && !direct {
		if direct, err = s.canCreateOrgRepo(org); err != nil {
			return err
		}
	}
	if direct {
		return s.completeTransfer(r, t, org)
	}
	return s.offerTransfer(r, t)
}

// transferAtOnce is repo.transfer before pending-transfers, unchanged: the
// repository moves in the action itself.
func transferAtOnce(s *session, payload []byte) error {
	var p repoTransferV1
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermOwner, "transferring a repository")
	if err != nil {
		return err
	}
	if p.NewOwner == (common.Address{}) {
		return invalid("newOwner", "must be an address")
	}
	if p.NewOwner == r.Owner {
		return conflict("%s already belongs to %s", r.Name, p.NewOwner.Hex())
	}
	if err := s.mayTransferTo(p.NewOwner); err != nil {
		return err
	}
	return s.moveRepo(r, p.NewOwner)
}

// checkTransfer checks an offer before it is made and returns the
// receiving organization (nil for a user).
func (s *session) checkTransfer(r *Repo, t *Transfer) (*Org, error) {
	if t.Recipient == (common.Address{}) {
		return nil, invalid("newOwner", "must be an address")
	}
	if t.Recipient == r.Owner {
		return nil, conflict("%s already belongs to %s", r.Name, t.Recipient.Hex())
	}
	if pending, found, err := s.transfer(r.ID); err != nil {
		return nil, err
	} else if found {
		return nil, conflict("%s has a pending transfer to %s already: it is accepted, rejected or cancelled first", r.Name, pending.Recipient.Hex())
	}
	org, err := s.orgAt(t.Recipient)
	if err != nil {
		return nil, err
	}
	if err := s.checkTransferTeams(org, t.Teams); err != nil {
		return nil, err
	}
	// Checked again on acceptance: the recipient may take the name meanwhile.
	return org, s.claimName(t.Recipient, r.Name, r.ID)
}

// checkTransferTeams checks the teams an offer names are org's, once each.
func (s *session) checkTransferTeams(org *Org, teams []uint64) error {
	if len(teams) == 0 {
		return nil
	}
	if org == nil {
		return invalid("teams", "are named only for a transfer to an organization")
	}
	if len(teams) > MaxTransferTeams {
		return invalid("teams", "may name at most %d teams", MaxTransferTeams)
	}
	for i, id := range teams {
		if slices.Contains(teams[:i], id) {
			return invalid("teams", "name team %d twice", id)
		}
		team, err := s.team(id)
		if err != nil {
			return err
		}
		if team.Org != org.ID {
			return invalid("teams", "team %d is not a team of %s", id, org.Name)
		}
	}
	return nil
}

// offerTransfer records t. As in Gitea, a recipient who could not read a
// private repository is given read access, to see what they are offered.
func (s *session) offerTransfer(r *Repo, t *Transfer) error {
	if err := s.putJSON(transferKey(r.ID), t); err != nil {
		return err
	}
	s.change.Transfer = t
	if !r.Private {
		return nil
	}
	p, err := s.permission(r, t.Recipient)
	if err != nil || p >= PermRead {
		return err
	}
	if err := s.kv.Set(collabKey(r.ID, t.Recipient), []byte(PermRead.String())); err != nil {
		return err
	}
	s.change.Collaborator = &Collaborator{Repo: r.ID, User: t.Recipient, Permission: PermRead.String()}
	return nil
}

// completeTransfer moves r to t's recipient and gives it to t's teams.
func (s *session) completeTransfer(r *Repo, t *Transfer, org *Org) error {
	if err := s.moveRepo(r, t.Recipient); err != nil {
		return err
	}
	return s.giveTeams(r, org, t.Teams)
}

// moveRepo gives r to newOwner: the name moves, the former organization's
// teams let go, and the former owner of a private repository loses their
// forks of it.
func (s *session) moveRepo(r *Repo, newOwner common.Address) error {
	if err := s.leaveOrg(r); err != nil {
		return err
	}
	oldOwner := r.Owner
	r.Owner = newOwner
	if err := s.moveName(r, oldOwner, r.Name); err != nil {
		return err
	}
	// The new owner's collaborator entry would be shadowed by ownership.
	if err := s.kv.Set(collabKey(r.ID, newOwner), none); err != nil {
		return err
	}
	if err := s.saveRepo(r); err != nil {
		return err
	}
	if err := s.countOrgRepo(r.Owner, true); err != nil {
		return err
	}
	// The former owner reads a private repository no more.
	return s.revokeForks(r, oldOwner)
}

// giveTeams adds r to org's teams; a team deleted since the offer is left out.
func (s *session) giveTeams(r *Repo, org *Org, teams []uint64) error {
	if org == nil || len(teams) == 0 {
		return nil
	}
	held, err := s.repoTeams(r.ID)
	if err != nil {
		return err
	}
	for _, id := range teams {
		team, err := s.team(id)
		if errors.Is(err, &tx.Error{Code: tx.CodeNotFound}) {
			continue
		} else if err != nil {
			return err
		}
		if team.Org != org.ID || slices.Contains(held, id) {
			continue
		}
		held = append(held, id)
		s.change.TeamRepos = append(s.change.TeamRepos, TeamRepo{Team: id, Org: org.ID, Repo: r.ID, On: true})
	}
	slices.Sort(held)
	return s.putJSON(repoTeamsKey(r.ID), held)
}

// transfer reads repository repo's pending transfer.
func (s *session) transfer(repo uint64) (*Transfer, bool, error) {
	var t Transfer
	found, err := s.getJSON(transferKey(repo), &t)
	if err != nil || !found {
		return nil, false, err
	}
	return &t, true, nil
}

// endTransfer drops r's pending transfer, if it has one, and reports how
// it ended. A repository that never had one gets no write: deleting
// repositories on chains before the upgrade must leave state as it did.
func (s *session) endTransfer(r *Repo, state string) error {
	t, found, err := s.transfer(r.ID)
	if err != nil || !found {
		return err
	}
	if err := s.kv.Set(transferKey(r.ID), none); err != nil {
		return err
	}
	t.State = state
	s.change.Transfer = t
	return nil
}

// dropTransfer drops a deleted repository's pending transfer, if it has
// one; the projection drops its row with the repository's.
func (s *session) dropTransfer(r *Repo) error {
	_, found, err := s.transfer(r.ID)
	if err != nil || !found {
		return err
	}
	return s.kv.Set(transferKey(r.ID), none)
}

// answers says whether the actor answers t for its recipient: the
// recipient, or for an organization whoever may create its repositories
// (Gitea's CanUserAcceptOrRejectTransfer). It returns the organization.
func (s *session) answers(t *Transfer) (bool, *Org, error) {
	org, err := s.orgAt(t.Recipient)
	if err != nil {
		return false, nil, err
	}
	if t.Recipient == s.actor {
		return true, org, nil
	}
	if org == nil {
		return false, nil, nil
	}
	ok, err := s.canCreateOrgRepo(org)
	return ok, org, err
}

// offered loads the repository an answer names and its pending transfer.
// Before the upgrade the answers do not exist, and are refused as the old
// binary refused them. Someone who may not read a private repository is
// told it does not exist, as elsewhere.
func (s *session) offered(action string, payload []byte) (*Repo, *Transfer, error) {
	on, err := s.pendingTransfers()
	if err != nil {
		return nil, nil, err
	}
	if !on {
		return nil, nil, tx.NewError(tx.CodeUnknownAction, "unknown forge action %q", action)
	}
	var p RepoRef
	if err := decode(payload, &p); err != nil {
		return nil, nil, err
	}
	r, err := s.repo(p.Repo)
	if err != nil {
		return nil, nil, err
	}
	perm, err := s.permission(r, s.actor)
	if err != nil {
		return nil, nil, err
	}
	t, found, err := s.transfer(r.ID)
	switch {
	case err != nil:
		return nil, nil, err
	case perm < PermRead && (!found || t.Recipient != s.actor):
		return nil, nil, notFound("repository %d does not exist", p.Repo)
	case !found:
		return nil, nil, notFound("%s has no pending transfer", r.Name)
	}
	return r, t, nil
}

func repoTransferAccept(s *session, payload []byte) error {
	r, t, err := s.offered("repo.transfer.accept", payload)
	if err != nil {
		return err
	}
	ok, org, err := s.answers(t)
	if err != nil {
		return err
	}
	if !ok {
		return forbidden("only the recipient of the transfer of %s may accept it", r.Name)
	}
	if err := s.claimName(t.Recipient, r.Name, r.ID); err != nil {
		return err
	}
	if err := s.endTransfer(r, TransferAccepted); err != nil {
		return err
	}
	return s.completeTransfer(r, t, org)
}

// repoTransferReject is the recipient's refusal or, by the repository's
// owners or the offer's maker, its cancellation.
func repoTransferReject(s *session, payload []byte) error {
	r, t, err := s.offered("repo.transfer.reject", payload)
	if err != nil {
		return err
	}
	ok, _, err := s.answers(t)
	if err != nil {
		return err
	}
	if ok {
		return s.endTransfer(r, TransferRejected)
	}
	perm, err := s.permission(r, s.actor)
	if err != nil {
		return err
	}
	if perm < PermOwner && s.actor != t.Doer {
		return forbidden("only the recipient of the transfer of %s may reject it, and its owners cancel it", r.Name)
	}
	return s.endTransfer(r, TransferCancelled)
}
