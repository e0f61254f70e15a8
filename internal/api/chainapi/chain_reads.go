package chainapi

import (
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Chain reads: the SQL projection of the chain (internal/index), plus the
// validator set from CometBFT.

// RegisterChainReads adds the chain's read routes when there is an index.
func (a *Handler) RegisterChainReads(mux *http.ServeMux) {
	if a.Index == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/chain/status", a.Serve(a.getChainStatus))
	mux.HandleFunc("GET /api/v1/chain/blocks", a.Serve(a.listBlocks))
	mux.HandleFunc("GET /api/v1/chain/blocks/{height}", a.Serve(a.getBlock))
	mux.HandleFunc("GET /api/v1/chain/txs", a.Serve(a.listTxs))
	mux.HandleFunc("GET /api/v1/chain/txs/{hash}", a.Serve(a.getTx))
	mux.HandleFunc("GET /api/v1/chain/validators", a.Serve(a.listValidators))
	mux.HandleFunc("GET /api/v1/nodes", a.Serve(a.listNodes))
	mux.HandleFunc("GET /api/v1/chain/tips", a.Serve(a.listTips))
	mux.HandleFunc("GET /api/v1/accounts/{address}/txs", a.Serve(a.listAccountTxs))
	mux.HandleFunc("GET /api/v1/usernames/{name}", a.Serve(a.getUsername))
}

func (a *Handler) getChainStatus(w http.ResponseWriter, r *http.Request) error {
	s, err := a.Index.Status(r.Context())
	return a.Respond(w, r, s, err)
}

func (a *Handler) listBlocks(w http.ResponseWriter, r *http.Request) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	blocks, total, err := a.Index.Blocks(r.Context(), p)
	return a.RespondList(w, r, p, total, blocks, err)
}

func (a *Handler) getBlock(w http.ResponseWriter, r *http.Request) error {
	h, err := strconv.ParseInt(r.PathValue("height"), 10, 64)
	if err != nil || h < 1 {
		return usererr.InvalidField("height", "invalid_height", "height must be a whole number from 1 up")
	}
	b, err := a.Index.Block(r.Context(), h)
	return a.Respond(w, r, b, err)
}

func (a *Handler) listTxs(w http.ResponseWriter, r *http.Request) error {
	var f index.TxFilter
	q := r.URL.Query()
	if v := q.Get("type"); v != "" {
		k, ok := tx.FoldKind(v) // a filter, not a signed type: any case will do
		if !ok {
			return usererr.InvalidField("type", "invalid_type", fmt.Sprintf("type must be one of %s", kindList()))
		}
		f.Type = string(k)
	}
	if v := q.Get("address"); v != "" {
		addr, err := parseAddress("address", v)
		if err != nil {
			return err
		}
		f.Address = &addr
	}
	return a.txList(w, r, f)
}

func (a *Handler) listAccountTxs(w http.ResponseWriter, r *http.Request) error {
	addr, err := pathAddress(r)
	if err != nil {
		return err
	}
	return a.txList(w, r, index.TxFilter{Address: &addr})
}

func (a *Handler) listTips(w http.ResponseWriter, r *http.Request) error {
	target := r.URL.Query().Get("target")
	if _, err := tx.ParseTarget(target); err != nil {
		return usererr.InvalidField("target", "invalid_target", "target must name what the tips thank, e.g. user:alice or repo:alice/x: "+err.Error())
	}
	return a.txList(w, r, index.TxFilter{Target: target})
}

func (a *Handler) txList(w http.ResponseWriter, r *http.Request, f index.TxFilter) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	txs, total, err := a.Index.Txs(r.Context(), f, p)
	return a.RespondList(w, r, p, total, txs, err)
}

var txHash = regexp.MustCompile(`^(0x)?[0-9a-fA-F]{64}$`)

func (a *Handler) getTx(w http.ResponseWriter, r *http.Request) error {
	raw := r.PathValue("hash")
	if !txHash.MatchString(raw) {
		return usererr.InvalidField("hash", "invalid_hash", "a transaction hash is 64 hex digits")
	}
	t, err := a.Index.Tx(r.Context(), strings.ToLower(strings.TrimPrefix(raw, "0x")))
	return a.Respond(w, r, t, err)
}

func (a *Handler) listValidators(w http.ResponseWriter, r *http.Request) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	vals, err := a.Index.Validators(r.Context())
	if err != nil {
		return err
	}
	// Typed so the OpenAPI generator, which reads the source, sees the item type.
	var page []index.Validator = api.PageSlice(vals, p)
	return a.RespondList(w, r, p, int64(len(vals)), page, nil)
}

func (a *Handler) getUsername(w http.ResponseWriter, r *http.Request) error {
	av, err := a.Index.UsernameAvailability(r.Context(), r.PathValue("name"))
	return a.Respond(w, r, av, err)
}

func kindList() string {
	var names []string
	for _, k := range tx.Kinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

func pathAddress(r *http.Request) (common.Address, error) {
	return parseAddress("address", r.PathValue("address"))
}

func parseAddress(field, raw string) (common.Address, error) {
	if !common.IsHexAddress(raw) {
		return common.Address{}, usererr.InvalidField(field, "invalid_address", field+" must be 0x followed by 40 hex digits")
	}
	return common.HexToAddress(raw), nil
}
