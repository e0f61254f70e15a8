package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	abci "github.com/cometbft/cometbft/abci/types"
	cmtcrypto "github.com/cometbft/cometbft/api/cometbft/crypto/v1"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
)

// Query codes, in their own codespace: they are not transaction results.
const (
	QueryCodespace              = "dforge/query"
	QueryCodeUnknownPath uint32 = 1
	QueryCodeInvalidArg  uint32 = 2
	QueryCodeNoHeight    uint32 = 3
	QueryCodeInternal    uint32 = 4
)

// ProofOpIAVL is the proof type of a ResponseQuery.ProofOps entry: an
// ICS-23 CommitmentProof of one key against the IAVL root, as the Cosmos
// SDK names it.
const ProofOpIAVL = "ics23:iavl"

// queryPaths answers /abci_query's path "/<kind>/<arg>": the JSON value
// as of a committed height. Each reads state through a recorder, so the
// proof covers exactly the keys the answer was computed from.
var queryPaths = map[string]func(a *App, kv *recorder, arg string) ([]byte, error){
	"accounts":  queryAccount,
	"balances":  queryBalance,
	"repos":     queryRepo,
	"proposals": queryProposal,
}

const queryPathsHelp = "/accounts/{address}, /balances/{address}, /repos/{id}, /proposals/{id}"

// errBadArg is a path argument that does not parse.
var errBadArg = errors.New("invalid argument")

// Query answers /abci_query on a committed version of the state, never
// the working tree, so it needs no lock and runs beside block execution.
// height 0 means the last committed block. With prove, ProofOps holds one
// ics23:iavl proof per state key read, against the app hash in the header
// of block height+1 (a missing key gets a non-existence proof).
func (a *App) Query(_ context.Context, req *abci.QueryRequest) (*abci.QueryResponse, error) {
	kind, arg, _ := strings.Cut(strings.TrimPrefix(req.Path, "/"), "/")
	read, ok := queryPaths[kind]
	if !ok {
		return queryFail(QueryCodeUnknownPath, fmt.Sprintf("unknown query path %q; the paths are %s", req.Path, queryPathsHelp)), nil
	}
	snap, err := a.state.At(req.Height)
	if errors.Is(err, state.ErrNoVersion) {
		return queryFail(QueryCodeNoHeight, err.Error()), nil
	}
	if err != nil {
		return queryFail(QueryCodeInternal, "open state: "+err.Error()), nil
	}
	rec := &recorder{snap: snap}
	value, err := read(a, rec, arg)
	if errors.Is(err, errBadArg) {
		return queryFail(QueryCodeInvalidArg, err.Error()), nil
	}
	if err != nil {
		return queryFail(QueryCodeInternal, fmt.Sprintf("read %s: %v", req.Path, err)), nil
	}
	resp := &abci.QueryResponse{Value: value, Height: snap.Version(), Codespace: QueryCodespace}
	if len(rec.reads) == 1 {
		resp.Key = rec.reads[0].key
	}
	if req.Prove {
		if resp.ProofOps, err = rec.prove(); err != nil {
			return queryFail(QueryCodeInternal, err.Error()), nil
		}
	}
	return resp, nil
}

func queryFail(code uint32, log string) *abci.QueryResponse {
	return &abci.QueryResponse{Code: code, Log: log, Codespace: QueryCodespace}
}

func queryAccount(a *App, kv *recorder, arg string) ([]byte, error) {
	addr, err := parseAddress(arg)
	if err != nil {
		return nil, err
	}
	acct, err := readAccount(kv, addr)
	if err != nil {
		return nil, err
	}
	return json.Marshal(acct)
}

// Balance is /balances' answer, in micro-units.
type Balance struct {
	Address common.Address `json:"address"`
	Balance uint64         `json:"balance"`
}

func queryBalance(_ *App, kv *recorder, arg string) ([]byte, error) {
	addr, err := parseAddress(arg)
	if err != nil {
		return nil, err
	}
	b, err := ledger.Balance(kv, addr)
	if err != nil {
		return nil, err
	}
	return json.Marshal(Balance{Address: addr, Balance: b})
}

// queryRepo answers the repository's record as stored (JSON), so the
// value is the proven leaf byte for byte; empty when there is none.
func queryRepo(_ *App, kv *recorder, arg string) ([]byte, error) {
	id, err := parseID(arg)
	if err != nil {
		return nil, err
	}
	if _, _, err := forge.RepoRecord(kv, id); err != nil {
		return nil, err
	}
	return kv.only(), nil
}

// queryProposal answers the proposal as stored (JSON), like queryRepo.
func queryProposal(_ *App, kv *recorder, arg string) ([]byte, error) {
	id, err := parseID(arg)
	if err != nil {
		return nil, err
	}
	if _, err := gov.GetProposal(kv, id); err != nil && !errors.Is(err, gov.ErrNotFound) {
		return nil, err
	}
	return kv.only(), nil
}

func parseAddress(s string) (common.Address, error) {
	if !common.IsHexAddress(s) {
		return common.Address{}, fmt.Errorf("%w: %q is not a 0x address", errBadArg, s)
	}
	return common.HexToAddress(s), nil
}

func parseID(s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("%w: %q is not a positive decimal id", errBadArg, s)
	}
	return id, nil
}

// recorder reads a snapshot and remembers each key read, in order.
type recorder struct {
	snap  *state.Snapshot
	reads []read
}

type read struct{ key, value []byte }

func (r *recorder) Get(key []byte) ([]byte, error) {
	v, err := r.snap.Get(key)
	if err != nil {
		return nil, err
	}
	for _, rd := range r.reads {
		if string(rd.key) == string(key) {
			return v, nil
		}
	}
	r.reads = append(r.reads, read{key: append([]byte(nil), key...), value: v})
	return v, nil
}

func (r *recorder) Set([]byte, []byte) error { return state.ErrReadOnly }

// only is the value of the one key read (nil if none or several).
func (r *recorder) only() []byte {
	if len(r.reads) != 1 {
		return nil
	}
	return r.reads[0].value
}

func (r *recorder) prove() (*cmtcrypto.ProofOps, error) {
	ops := make([]cmtcrypto.ProofOp, len(r.reads))
	for i, rd := range r.reads {
		p, err := r.snap.Proof(rd.key)
		if err != nil {
			return nil, err
		}
		data, err := p.Marshal()
		if err != nil {
			return nil, fmt.Errorf("encode proof of %x: %w", rd.key, err)
		}
		ops[i] = cmtcrypto.ProofOp{Type: ProofOpIAVL, Key: rd.key, Data: data}
	}
	return &cmtcrypto.ProofOps{Ops: ops}, nil
}
