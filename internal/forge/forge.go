// Package forge is the forge service: it carries out what signed-in users
// do with repositories, issues and pull requests, and reads them back.
// Public actions become Forge transactions naming the user as actor,
// signed with the node's operator key under the user's delegation, or by
// the user's own wallet (sensitive actions; authority.go); the chain's
// forge module decides them, and the service answers once the index has
// projected the block, so the next page read sees the write. Private repositories'
// actions go through the same module into the node's private store and
// are projected the same way, never leaving the node.
package forge

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/delegation"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge/private"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Chain is what the service needs of the running chain (*chain.Chain).
type Chain interface {
	Params() app.Params
	Broadcast(ctx context.Context, env tx.Envelope) (*chain.Pending, error)
	PendingNonce(addr common.Address) (uint64, error)
	Account(addr common.Address) (app.Account, error)
	IsOperator(addr common.Address) (bool, error)
	ForgeRefs(repo uint64) ([]chainforge.Ref, error)
	// Committing is a *chain.NotCommitting when the network cannot make
	// blocks now (too few validators online).
	Committing(ctx context.Context) error
	OwnKeys() (bool, error)
	Delegation(account, delegate common.Address) (delegation.Delegation, bool, error)
	PrecheckAction(actor common.Address, action, payload string) error
	Height() uint64
}

// Config is what New needs.
type Config struct {
	Chain Chain
	Index *index.Index
	// OperatorKey signs the relayed actions; its address must be one of the
	// genesis operators.
	OperatorKey *ecdsa.PrivateKey
	// Private is the node's private store (private.Open(<data>/private)).
	// The service closes it.
	Private *private.Store
	Log     *slog.Logger
	// Now gives private actions their time; nil means time.Now.
	Now func() time.Time
	// Drafts keeps pending reviews, private to their author; nil keeps none.
	Drafts *store.Store
	// Writers refuses the actions of accounts this node does not write
	// for (its moderators' suspensions); nil refuses none.
	Writers Writers
}

// Writers decides whether the node relays an account's writes; a refusal
// is a *usererr.Error (moderation: 403 suspended).
type Writers interface {
	CheckWriter(ctx context.Context, addr common.Address) error
}

// Service is the forge service.
type Service struct {
	chain    Chain
	ix       *index.Index
	key      *ecdsa.PrivateKey
	operator common.Address
	private  *private.Store
	drafts   *store.Store
	writers  Writers
	log      *slog.Logger
	now      func() time.Time

	// relays queues the operator's transactions for admission (relay.go).
	relays relayQueue
	// nonce is the operator's next nonce, known while nonceSync; only the
	// relay queue's draining goroutine reads and moves them.
	nonce     uint64
	nonceSync bool
	// resync asks the draining goroutine to read the nonce again (a
	// surprise seen by a caller waiting for its block).
	resync atomic.Bool
	// privateMu orders private actions with their projection.
	privateMu sync.Mutex
	// ownKeys is set once the chain applies the own-keys rules (ownKeysApply).
	ownKeys atomic.Bool
}

// waitTimeout bounds how long Do waits for a block when ctx has no deadline.
const waitTimeout = 60 * time.Second

// New returns the service and projects any private store entries the
// index has not seen (after a crash between the two).
func New(ctx context.Context, cfg Config) (*Service, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	s := &Service{
		chain: cfg.Chain, ix: cfg.Index, key: cfg.OperatorKey, operator: crypto.PubkeyToAddress(cfg.OperatorKey.PublicKey),
		private: cfg.Private, drafts: cfg.Drafts, writers: cfg.Writers, log: cfg.Log.With("component", "forge"), now: cfg.Now,
	}
	if ok, err := s.needsOperator(); err != nil {
		return nil, fmt.Errorf("check operator: %w", err)
	} else if !ok {
		s.log.Warn("this node's operator key is not in the chain's genesis: public forge actions will be refused", "operator", s.operator.Hex())
	}
	if err := s.catchUpPrivate(ctx); err != nil {
		return nil, fmt.Errorf("project the private store: %w", err)
	}
	return s, nil
}

// needsOperator reports whether this node may relay: any node under the
// own-keys rules, a genesis operator before them.
func (s *Service) needsOperator() (bool, error) {
	if on, err := s.ownKeysApply(); err != nil || on {
		return on, err
	}
	return s.chain.IsOperator(s.operator)
}

// Close closes the private store.
func (s *Service) Close() error { return s.private.Close() }

// Operator is the address the node relays forge actions with.
func (s *Service) Operator() common.Address { return s.operator }

func (s *Service) catchUpPrivate(ctx context.Context) error {
	for {
		done, err := s.ix.PrivateSeq(ctx)
		if err != nil {
			return fmt.Errorf("read the projected private sequence: %w", err)
		}
		entries, err := s.private.Log(done, 500)
		if err != nil {
			return fmt.Errorf("read private log: %w", err)
		}
		if len(entries) == 0 {
			return nil
		}
		if err := s.ix.ProjectPrivate(ctx, indexEntries(entries)...); err != nil {
			return fmt.Errorf("project private entries: %w", err)
		}
	}
}

func indexEntries(entries []private.Entry) []index.PrivateEntry {
	out := make([]index.PrivateEntry, len(entries))
	for i, e := range entries {
		out[i] = index.PrivateEntry{Seq: e.Seq, TimeNS: e.TimeNS, Events: []abci.Event{e.Change.Event()}}
	}
	return out
}

// Relaying reports whether a transaction this node relayed still waits in
// the mempool: until none does, an action whose outcome was unknown
// (NotCommitted) may yet commit.
func (s *Service) Relaying() (bool, error) {
	acct, err := s.chain.Account(s.operator)
	if err != nil {
		return false, fmt.Errorf("read operator account: %w", err)
	}
	pending, err := s.chain.PendingNonce(s.operator)
	if err != nil {
		return false, fmt.Errorf("read operator nonce: %w", err)
	}
	return pending > acct.Nonce, nil
}

// Refs lists a repository's refs as the chain (or, for a private one,
// the private store) holds them: the values git must follow.
func (s *Service) Refs(repo uint64) ([]chainforge.Ref, error) {
	if chainforge.IsPrivateID(repo) {
		return s.private.Refs(repo)
	}
	return s.chain.ForgeRefs(repo)
}

// Result is an applied action: what it changed (with the ids and numbers
// given), and where: a block (Height, TxHash) or the private store
// (Private, Height = its sequence number).
type Result struct {
	Change  chainforge.Change `json:"change"`
	Height  int64             `json:"height"`
	TxHash  string            `json:"txHash,omitempty"`
	Private bool              `json:"private"`
}

// Do carries out the action a (a typed payload, e.g.
// chainforge.IssueCreate, which names its action) for actor and returns
// once the projection shows it. A refusal comes back as a *usererr.Error
// with the chain's code and message: 404 not_found, 403 forbidden or
// protected_branch, 409 conflict or name_taken, 422 for invalid input
// (invalid_text, naming the field, for text with control characters).
func (s *Service) Do(ctx context.Context, actor common.Address, a chainforge.Action) (Result, error) {
	return s.DoJSON(ctx, actor, a.ActionName(), a)
}

// DoJSON is Do for an action named at run time with its payload as JSON
// text or as a value that encodes to it: what relays a client's own
// action, and tests that send malformed payloads on purpose.
func (s *Service) DoJSON(ctx context.Context, actor common.Address, action string, payload any) (Result, error) {
	// Every write the node relays for a user passes here: a suspended
	// account's is refused before anything is signed.
	if s.writers != nil {
		if err := s.writers.CheckWriter(ctx, actor); err != nil {
			return Result{}, err
		}
	}
	raw, err := compactJSON(payload)
	if err != nil {
		return Result{}, usererr.InvalidField("payload", "invalid_field", "the action's fields are not JSON: "+err.Error())
	}
	// The module's text rules need no state: refuse such text here, before
	// it costs a nonce and a block, and with the field named, which a
	// rejection coming back from the chain no longer carries.
	if err := chainforge.CheckText(action, raw); err != nil {
		return Result{}, rejection(err)
	}
	if err := s.checkNameClash(ctx, actor, action, raw); err != nil {
		return Result{}, err
	}
	if isPrivate(action, raw) {
		return s.doPrivate(ctx, actor, action, raw)
	}
	return s.doPublic(ctx, actor, action, raw)
}

func compactJSON(payload any) (string, error) {
	var b []byte
	switch p := payload.(type) {
	case string:
		b = []byte(p)
	case []byte:
		b = p
	case json.RawMessage:
		b = p
	default:
		var err error
		if b, err = json.Marshal(payload); err != nil {
			return "", fmt.Errorf("encode the payload: %w", err)
		}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return "", fmt.Errorf("compact the payload: %w", err)
	}
	return buf.String(), nil
}

// isPrivate says where an action applies: a new private repository, or
// anything naming a repository with a private id, is the private store's.
func isPrivate(action, payload string) bool {
	var p struct {
		Repo    json.Number `json:"repo"`
		Private bool        `json:"private"`
	}
	if json.Unmarshal([]byte(payload), &p) != nil {
		return false // the module will say what is wrong with it
	}
	if action == "repo.create" {
		return p.Private
	}
	id, err := strconv.ParseUint(p.Repo.String(), 10, 64)
	return err == nil && chainforge.IsPrivateID(id)
}

func (s *Service) doPrivate(ctx context.Context, actor common.Address, action, payload string) (Result, error) {
	s.privateMu.Lock()
	defer s.privateMu.Unlock()
	e, err := s.private.Apply(actor, action, payload, s.now().UnixNano())
	if err != nil {
		return Result{}, rejection(err)
	}
	if err := s.ix.ProjectPrivate(ctx, indexEntries([]private.Entry{e})...); err != nil {
		return Result{}, fmt.Errorf("project private action: %w", err)
	}
	return Result{Change: e.Change, Height: int64(e.Seq), Private: true}, nil
}

func (s *Service) doPublic(ctx context.Context, actor common.Address, action, payload string) (Result, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, waitTimeout)
		defer cancel()
	}
	// 1. Refuse what the network cannot commit now: it would wait in the
	// mempool with no answer to give, and apply whenever it comes back.
	if err := s.committing(ctx); err != nil {
		return Result{}, err
	}
	// 2. The user's own signed transaction, when the request carries one;
	// else the node signs, if the user's delegation lets it (own-keys
	// rules), with its next nonce, and gets it into the mempool.
	signer := s.operator
	pending, nonce, err := s.signAndSend(ctx, actor, action, payload)
	if err != nil {
		return Result{}, err
	}
	if _, ok := ctx.Value(signedKey{}).(tx.Envelope); ok {
		signer = actor
	}
	// 3. Wait for its block, then for the block's projection.
	committed, err := s.await(ctx, pending, signer, nonce)
	if err != nil {
		return Result{}, err
	}
	if committed.Code != 0 {
		return Result{}, s.authorityRefusal(&tx.Error{Code: committed.Code, Name: tx.CodeName(committed.Code), Message: committed.Log}, actor, action, payload)
	}
	if err := s.ix.WaitFor(ctx, committed.Height); err != nil {
		return Result{}, indexWaitError(committed, err)
	}
	res := Result{Height: committed.Height, TxHash: committed.Hash}
	for _, ev := range committed.Events {
		if ev.Type == chainforge.EventType {
			if res.Change, err = chainforge.ParseEvent(ev); err != nil {
				return Result{}, fmt.Errorf("parse the forge event: %w", err)
			}
		}
	}
	return res, nil
}

// signAndSend gets the action into the mempool: the user's own signed
// transaction when ctx carries one (WithSigned), else one the node signs
// under the user's delegation.
func (s *Service) signAndSend(ctx context.Context, actor common.Address, action, payload string) (*chain.Pending, uint64, error) {
	if env, ok := ctx.Value(signedKey{}).(tx.Envelope); ok {
		return s.submitSigned(ctx, env, actor, action, payload)
	}
	if err := s.checkAuthority(ctx, actor, action, payload); err != nil {
		return nil, 0, err
	}
	pending, nonce, err := s.relay(ctx, tx.KindForge, map[string]any{"actor": actor.Hex(), "action": action, "payload": payload})
	if err != nil {
		return nil, 0, s.authorityRefusal(err, actor, action, payload)
	}
	return pending, nonce, nil
}

// Codes of the refusals of an action the network cannot commit now:
// NoQuorum before it is sent (nothing changed), NotCommitted once it
// waits in the mempool (it applies if the network commits it later).
const (
	NoQuorum     = "no_quorum"
	NotCommitted = "not_committed"
)

// quorumWait is how long an action waits for the network to be able to
// commit before it is refused: a node that has just started is connected
// to its peers within a moment.
const quorumWait = 3 * time.Second

// committing is a NoQuorum refusal when the chain says the network cannot
// commit now, and still says so after quorumWait. Failing to ask is no
// refusal: the relay finds out.
func (s *Service) committing(ctx context.Context) error {
	deadline := time.Now().Add(quorumWait)
	for {
		var nc *chain.NotCommitting
		if err := s.chain.Committing(ctx); !errors.As(err, &nc) {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return usererr.New(usererr.Unavailable, NoQuorum,
				nc.Error()+". Nothing was changed; try again once enough validators are back online.")
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// IndexBehind is the refusal code of an action committed on chain that
// the node's index has not reached in time.
const IndexBehind = "index_behind"

// indexWaitError says why a committed action is not visible yet. A stuck
// index is the node's problem, not the request's: the action is on chain,
// so the client must learn not to send it again.
func indexWaitError(c chain.Committed, err error) error {
	var stall *index.Stall
	if errors.Is(err, context.DeadlineExceeded) && !errors.As(err, &stall) {
		// Not stuck, only behind (a flood of blocks to project): the same
		// answer, for the same reason.
		return usererr.Newf(usererr.Unavailable, IndexBehind,
			"the action was accepted on chain (block %d, transaction %s), but this node's view of the chain is still catching up: "+
				"the change will show once it has; do not send it again", c.Height, c.Hash)
	}
	if !errors.As(err, &stall) {
		return fmt.Errorf("wait for the index: %w", err)
	}
	return usererr.Newf(usererr.Unavailable, "index_stalled",
		"the action was accepted on chain (block %d, transaction %s), but this node's view of the chain is behind: "+
			"it cannot index block %d yet, so the change will show once the node catches up; do not send it again",
		c.Height, c.Hash, stall.Height)
}

// catchUpRetry is how often a node still syncing is asked again.
const catchUpRetry = 100 * time.Millisecond

// dropCheck is how often a waiting action checks it was not dropped.
const dropCheck = time.Second

// await waits for the transaction's block. Should the transaction leave
// the mempool without a block (evicted), the signer's committed nonce
// passes it and no block since the broadcast holds it; then it was
// dropped. A late event alone is not a drop (a node busy with a flood
// delivers events seconds behind its blocks). Should the
// network stop making blocks, it answers NotCommitted rather than wait
// for the validators to come back.
func (s *Service) await(ctx context.Context, p *chain.Pending, signer common.Address, nonce uint64) (chain.Committed, error) {
	type outcome struct {
		c   chain.Committed
		err error
	}
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan outcome, 1)
	go func() {
		c, err := p.Wait(waitCtx)
		done <- outcome{c, err}
	}()
	tick := time.NewTicker(dropCheck)
	defer tick.Stop()
	included := false
	for {
		select {
		case o := <-done:
			if o.err != nil {
				return chain.Committed{}, fmt.Errorf("wait for the transaction's block: %w", o.err)
			}
			return o.c, nil
		case <-tick.C:
			var nc *chain.NotCommitting
			if err := s.chain.Committing(ctx); errors.As(err, &nc) && nc.Stalled {
				return chain.Committed{}, usererr.New(usererr.Unavailable, NotCommitted,
					nc.Error()+". This action waits on this node and is applied if the network commits it later: check before sending it again.")
			}
			if included {
				continue // in a block: its event is on its way
			}
			acct, err := s.chain.Account(signer)
			if err != nil || acct.Nonce <= nonce {
				continue
			}
			// The nonce passed: either a block holds this transaction and
			// its event is late (a node busy with a flood's blocks), or
			// another one took the nonce and this one was dropped.
			if included, err = p.Included(ctx); err != nil || included {
				continue
			}
			s.resync.Store(true)
			return chain.Committed{}, usererr.Clashf("dropped", "the chain dropped this action before it was applied (another node's action changed the state first); please try again")
		}
	}
}

// rejection maps a chain rejection to the user error the API answers with.
func rejection(err error) error {
	var te *tx.Error
	if !errors.As(err, &te) {
		return err
	}
	kind := usererr.Unprocessable
	switch te.Code {
	case tx.CodeNotFound:
		kind = usererr.NotFound
	case tx.CodeForbidden, tx.CodeProtectedBranch:
		kind = usererr.Forbidden
	case tx.CodeConflict, tx.CodeNameTaken, tx.CodeStaleRef, tx.CodeTopicLocked:
		kind = usererr.Conflict
	case tx.CodeInvalidName, tx.CodeInvalidField, tx.CodeInvalidText, tx.CodeUnknownAction, tx.CodeTxTooLarge,
		tx.CodeInvalidKey, tx.CodeKeyTaken, tx.CodeInvalidURL:
		kind = usererr.Unprocessable
	case tx.CodeNotDelegated:
		return notDelegated()
	case tx.CodeRateLimited:
		kind = usererr.TooMany
	default:
		// not_operator, bad_nonce after a retry, ...: the node's fault,
		// not the user's.
		return fmt.Errorf("relay forge action: %w", te)
	}
	return usererr.New(kind, te.Name, te.Message).On(te.Field)
}

// IssueChange is an edit of an issue or pull request: the fields to set
// (nil leaves one as it is) and a close or reopen.
type IssueChange struct {
	Title *string
	Body  *string
	// Assignees replaces the assignees: usernames or addresses.
	Assignees *[]string
	// Milestone files it under a milestone (an id the caller checked);
	// 0 takes it out of its milestone.
	Milestone *uint64
	// State is chainforge.StateClosed or StateOpen to close or reopen;
	// "" leaves the state.
	State string
	// Reason is why an issue is closed (chainforge.ReasonCompleted or
	// ReasonNotPlanned); a pull request has none.
	Reason string
}

// EditIssue applies c to issue is of repo for actor: one issue.edit (title,
// body, assignees), then an issue.close or issue.reopen. What the forge
// module would refuse of the second is refused before the first is sent
// (a merged pull request stays closed; the author or a maintainer closes
// and reopens), so a refusal leaves the issue untouched.
func (s *Service) EditIssue(ctx context.Context, actor common.Address, repo index.Repo, is index.Issue, c IssueChange) error {
	// 1. The issue.edit, its assignees resolved.
	var edit *chainforge.IssueEdit
	if c.Title != nil || c.Body != nil || c.Assignees != nil || c.Milestone != nil {
		edit = &chainforge.IssueEdit{Repo: repo.ID, Number: is.Number, Title: c.Title, Body: c.Body, Milestone: c.Milestone}
		if c.Assignees != nil {
			list, err := s.Assignees(ctx, *c.Assignees)
			if err != nil {
				return err
			}
			edit.Assignees = &list
		}
	}
	// 2. The refusals of the state change.
	if c.State != "" && is.IsPull {
		if pr, err := s.ix.Pull(ctx, repo.ID, is.Number); err == nil && pr.Merged {
			return usererr.Clashf(usererr.CodeConflict, "pull request #%d is merged; it cannot be closed or reopened", is.Number)
		}
	}
	if edit != nil && c.State != "" && common.HexToAddress(is.Author.Address) != actor {
		perm, err := s.Permission(ctx, repo, actor)
		if err != nil {
			return err
		}
		if perm < PermMaintain {
			return usererr.Deniedf("only the author or a maintainer may close or reopen #%d", is.Number)
		}
	}
	// 3. The actions.
	if edit != nil {
		if _, err := s.Do(ctx, actor, edit); err != nil {
			return err
		}
	}
	if c.State == "" {
		return nil
	}
	state := chainforge.IssueState{Repo: repo.ID, Number: is.Number}
	var action chainforge.Action = chainforge.IssueReopen(state)
	if c.State == chainforge.StateClosed {
		if !is.IsPull {
			state.Reason = c.Reason
		}
		action = chainforge.IssueClose(state)
	}
	_, err := s.Do(ctx, actor, action)
	return err
}

// Assignees resolves the usernames (or addresses) of an issue's assignees,
// each once.
func (s *Service) Assignees(ctx context.Context, names []string) ([]common.Address, error) {
	out := []common.Address{}
	for _, name := range names {
		addr, err := s.Owner(ctx, name)
		if err != nil {
			return nil, usererr.BadFieldf("assignees", "there is no user %s to assign", name)
		}
		if !slices.Contains(out, addr) {
			out = append(out, addr)
		}
	}
	return out, nil
}
