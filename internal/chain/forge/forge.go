// Package forge is the chain module of the forge: repositories, their
// collaborators, stars and watches, issues, labels, comments, pull
// requests, reviews, merges and ref updates. It owns its state keys and
// its rules (who may do what), numbers issues and pull requests (one
// counter per repository, as in Gitea) and gives every applied action one
// event, from which the index projects it.
//
// It is pure and deterministic like the other modules: it reads and writes
// only the store it is given, never a clock (the height comes in Env), and
// never ranges over a map into state. The same module also runs outside
// consensus, over a node's private store (Env.Private), for private
// repositories, which never go on chain.
package forge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Env is where an action is applied.
type Env struct {
	// Height is the block height on chain; in a private store, the
	// sequence number of the action.
	Height uint64
	// Private says the store is a node's private store: every repository
	// in it is private, and its ids start at PrivateIDBase.
	Private bool
	// Delegated says the action was signed under a delegation, not by the
	// actor's own key (own-keys rules): sensitive changes are refused.
	Delegated bool
}

// PrivateIDBase is where a private store's ids (repositories, labels,
// comments, reviews, pushes) start, so they never collide with the chain's
// in the one SQL projection. It stays below 2^53, which JavaScript
// clients read exactly.
const PrivateIDBase uint64 = 1 << 48

// IsPrivateID reports whether id was given by a private store.
func IsPrivateID(id uint64) bool { return id >= PrivateIDBase }

// handler applies one action's payload.
type handler func(s *session, payload []byte) error

// action is one entry of the actions table: a zero value of its payload
// type (which its handler decodes; CheckText decodes it without state)
// and its handler.
type action struct {
	payload Action
	apply   handler
}

// actions lists every action; adding one is one entry.
var actions map[string]action

func init() {
	actions = map[string]action{
		"repo.create":           {RepoCreate{}, repoCreate},
		"repo.update":           {RepoUpdate{}, repoUpdate},
		"repo.delete":           {RepoDelete{}, repoDelete},
		"repo.transfer":         {RepoTransfer{}, repoTransfer},
		"repo.transfer.accept":  {RepoTransferAccept{}, repoTransferAccept},
		"repo.transfer.reject":  {RepoTransferReject{}, repoTransferReject},
		"repo.fork":             {RepoFork{}, repoFork},
		"repo.star":             {RepoStar{}, func(s *session, p []byte) error { return repoFlag(s, p, flagStar, true) }},
		"repo.unstar":           {RepoUnstar{}, func(s *session, p []byte) error { return repoFlag(s, p, flagStar, false) }},
		"repo.watch":            {RepoWatch{}, func(s *session, p []byte) error { return repoFlag(s, p, flagWatch, true) }},
		"repo.unwatch":          {RepoUnwatch{}, func(s *session, p []byte) error { return repoFlag(s, p, flagWatch, false) }},
		"repo.collaborator.set": {CollaboratorSet{}, collaboratorSet},
		"repo.push":             {RepoPush{}, repoPush},
		"repo.manifest":         {RepoManifest{}, repoManifest},
		"issue.create":          {IssueCreate{}, issueCreate},
		"issue.edit":            {IssueEdit{}, issueEdit},
		"issue.close":           {IssueClose{}, func(s *session, p []byte) error { return issueSetState(s, p, false, StateClosed) }},
		"issue.reopen":          {IssueReopen{}, func(s *session, p []byte) error { return issueSetState(s, p, false, StateOpen) }},
		"issue.comment":         {IssueComment{}, issueComment},
		"label.create":          {LabelCreate{}, labelCreate},
		"label.delete":          {LabelDelete{}, labelDelete},
		"label.edit":            {LabelEdit{}, labelEdit},
		"repo.topics":           {RepoTopics{}, repoTopics},
		"milestone.create":      {MilestoneCreate{}, milestoneCreate},
		"milestone.edit":        {MilestoneEdit{}, milestoneEdit},
		"milestone.delete":      {MilestoneDelete{}, milestoneDelete},
		"comment.edit":          {CommentEdit{}, commentEdit},
		"comment.delete":        {CommentDelete{}, commentDelete},
		"reaction.add":          {ReactionAdd{}, func(s *session, p []byte) error { return reactionSet(s, p, true) }},
		"reaction.remove":       {ReactionRemove{}, func(s *session, p []byte) error { return reactionSet(s, p, false) }},
		"issue.pin":             {IssuePinAction{}, func(s *session, p []byte) error { return issuePin(s, p, true) }},
		"issue.unpin":           {IssueUnpin{}, func(s *session, p []byte) error { return issuePin(s, p, false) }},
		"issue.subscribe":       {IssueSubscribeAction{}, func(s *session, p []byte) error { return issueSubscribe(s, p, true) }},
		"issue.unsubscribe":     {IssueUnsubscribe{}, func(s *session, p []byte) error { return issueSubscribe(s, p, false) }},
		"pr.create":             {PullCreate{}, pullCreate},
		"pr.update":             {PullUpdate{}, pullUpdate},
		"pr.close":              {PullClose{}, func(s *session, p []byte) error { return issueSetState(s, p, true, StateClosed) }},
		"pr.reopen":             {PullReopen{}, func(s *session, p []byte) error { return issueSetState(s, p, true, StateOpen) }},
		"pr.review":             {PullReview{}, pullReview},
		"pr.merge":              {PullMerge{}, pullMerge},
		"pr.review.request":     {PullReviewRequest{}, pullReviewRequest},
		"pr.review.unrequest":   {PullReviewUnrequest{}, pullReviewUnrequest},
		"pr.review.dismiss":     {PullReviewDismiss{}, pullReviewDismiss},
		"pr.review.undismiss":   {PullReviewUndismiss{}, pullReviewUndismiss},
		"release.create":        {ReleaseCreate{}, releaseCreate},
		"release.edit":          {ReleaseEdit{}, releaseEdit},
		"release.delete":        {ReleaseDelete{}, releaseDelete},
		"release.asset.add":     {AssetAdd{}, assetAdd},
		"release.asset.edit":    {AssetEdit{}, assetEdit},
		"release.asset.delete":  {AssetDelete{}, assetDelete},
		"repo.lfs":              {RepoLFS{}, repoLFS},
		"org.create":            {OrgCreate{}, orgCreate},
		"org.update":            {OrgUpdate{}, orgUpdate},
		"org.delete":            {OrgDelete{}, orgDelete},
		"org.member.remove":     {OrgMemberRemove{}, orgMemberRemove},
		"team.create":           {TeamCreate{}, teamCreate},
		"team.edit":             {TeamEdit{}, teamEdit},
		"team.delete":           {TeamDelete{}, teamDelete},
		"team.member.add":       {TeamMemberAdd{}, teamMemberAdd},
		"team.member.remove":    {TeamMemberRemove{}, teamMemberRemove},
		"team.repo.add":         {TeamRepoAdd{}, teamRepoAdd},
		"team.repo.remove":      {TeamRepoRemove{}, teamRepoRemove},
		"status.create":         {StatusCreate{}, statusCreate},
		"branch.protect":        {BranchProtect{}, branchProtect},
		"branch.unprotect":      {BranchUnprotect{}, branchUnprotect},
	}
}

// PayloadOf returns a pointer to a new zero value of action's payload
// type, or false for an unknown action.
func PayloadOf(action string) (any, bool) {
	a, ok := actions[action]
	if !ok {
		return nil, false
	}
	return reflect.New(reflect.TypeOf(a.payload)).Interface(), true
}

// CheckText decodes payload as action's and holds its text to the text
// rules, without state: what the module would refuse with
// tx.CodeInvalidText (the error's Field names the field), so a node can
// refuse it before relaying. Other faults are left to Apply.
func CheckText(action, payload string) error {
	p, ok := PayloadOf(action)
	if !ok {
		return nil
	}
	err := decode([]byte(payload), p)
	if errors.Is(err, &tx.Error{Code: tx.CodeInvalidText}) {
		return err
	}
	return nil
}

// Actions lists the action names, for documentation and tests.
func Actions() []string {
	names := make([]string, 0, len(actions))
	for name := range actions {
		names = append(names, name)
	}
	sortStrings(names)
	return names
}

// session is one action being applied.
type session struct {
	kv     state.KV
	env    Env
	actor  common.Address
	change Change
}

// Apply applies one action for actor and returns its event. A rejected
// action returns a *tx.Error with a stable code and may have written to
// kv: callers apply it on an overlay they drop on error, as the app does.
func Apply(kv state.KV, env Env, actor common.Address, action, payload string) (abci.Event, error) {
	ch, err := ApplyChange(kv, env, actor, action, payload)
	if err != nil {
		return abci.Event{}, err
	}
	return ch.Event(), nil
}

// ApplyChange is Apply returning the Change itself.
func ApplyChange(kv state.KV, env Env, actor common.Address, action, payload string) (Change, error) {
	if !applied.Load() {
		applied.Store(true)
	}
	a, ok := actions[action]
	if !ok {
		return Change{}, tx.NewError(tx.CodeUnknownAction, "unknown forge action %q", action)
	}
	if actor == (common.Address{}) {
		return Change{}, invalid("actor", "is the zero address")
	}
	s := &session{kv: kv, env: env, actor: actor, change: Change{Action: action, Actor: actor, Height: env.Height}}
	if err := a.apply(s, []byte(payload)); err != nil {
		return Change{}, err
	}
	return s.change, nil
}

// decode reads a payload strictly: one JSON object of the action's fields,
// nothing unknown, nothing after it, and every string held to the text
// rules (checkText). JSON decoding would quietly turn invalid UTF-8 into
// U+FFFD, so the raw payload is checked first.
func decode(payload []byte, dst any) error {
	if err := tx.CheckBody("payload", string(payload)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return tx.NewError(tx.CodeInvalidField, "the payload is not this action's JSON object: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return tx.NewError(tx.CodeInvalidField, "the payload has data after its JSON object")
	}
	return checkText(dst)
}
