package api

import (
	"fmt"
	"math"
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

// registerChainReads adds the chain's read routes when there is an index.
func (a *API) registerChainReads(mux *http.ServeMux) {
	if a.index == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/chain/status", a.serve(a.getChainStatus))
	mux.HandleFunc("GET /api/v1/chain/blocks", a.serve(a.listBlocks))
	mux.HandleFunc("GET /api/v1/chain/blocks/{height}", a.serve(a.getBlock))
	mux.HandleFunc("GET /api/v1/chain/txs", a.serve(a.listTxs))
	mux.HandleFunc("GET /api/v1/chain/txs/{hash}", a.serve(a.getTx))
	mux.HandleFunc("GET /api/v1/chain/validators", a.serve(a.listValidators))
	mux.HandleFunc("GET /api/v1/nodes", a.serve(a.listNodes))
	mux.HandleFunc("GET /api/v1/chain/tips", a.serve(a.listTips))
	mux.HandleFunc("GET /api/v1/accounts/{address}/txs", a.serve(a.listAccountTxs))
	mux.HandleFunc("GET /api/v1/usernames/{name}", a.serve(a.getUsername))
}

func (a *API) getChainStatus(w http.ResponseWriter, r *http.Request) error {
	s, err := a.index.Status(r.Context())
	return a.respond(w, r, s, err)
}

func (a *API) listBlocks(w http.ResponseWriter, r *http.Request) error {
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	blocks, total, err := a.index.Blocks(r.Context(), p)
	return a.respondList(w, r, p, total, blocks, err)
}

func (a *API) getBlock(w http.ResponseWriter, r *http.Request) error {
	h, err := strconv.ParseInt(r.PathValue("height"), 10, 64)
	if err != nil || h < 1 {
		return usererr.InvalidField("height", "invalid_height", "height must be a whole number from 1 up")
	}
	b, err := a.index.Block(r.Context(), h)
	return a.respond(w, r, b, err)
}

func (a *API) listTxs(w http.ResponseWriter, r *http.Request) error {
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

func (a *API) listAccountTxs(w http.ResponseWriter, r *http.Request) error {
	addr, err := pathAddress(r)
	if err != nil {
		return err
	}
	return a.txList(w, r, index.TxFilter{Address: &addr})
}

func (a *API) listTips(w http.ResponseWriter, r *http.Request) error {
	target := r.URL.Query().Get("target")
	if _, err := tx.ParseTarget(target); err != nil {
		return usererr.InvalidField("target", "invalid_target", "target must name what the tips thank, e.g. user:alice or repo:alice/x: "+err.Error())
	}
	return a.txList(w, r, index.TxFilter{Target: target})
}

func (a *API) txList(w http.ResponseWriter, r *http.Request, f index.TxFilter) error {
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	txs, total, err := a.index.Txs(r.Context(), f, p)
	return a.respondList(w, r, p, total, txs, err)
}

var txHash = regexp.MustCompile(`^(0x)?[0-9a-fA-F]{64}$`)

func (a *API) getTx(w http.ResponseWriter, r *http.Request) error {
	raw := r.PathValue("hash")
	if !txHash.MatchString(raw) {
		return usererr.InvalidField("hash", "invalid_hash", "a transaction hash is 64 hex digits")
	}
	t, err := a.index.Tx(r.Context(), strings.ToLower(strings.TrimPrefix(raw, "0x")))
	return a.respond(w, r, t, err)
}

func (a *API) listValidators(w http.ResponseWriter, r *http.Request) error {
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	vals, err := a.index.Validators(r.Context())
	if err != nil {
		return err
	}
	// Typed so the OpenAPI generator, which reads the source, sees the item type.
	var page []index.Validator = pageSlice(vals, p)
	return a.respondList(w, r, p, int64(len(vals)), page, nil)
}

func (a *API) getUsername(w http.ResponseWriter, r *http.Request) error {
	av, err := a.index.UsernameAvailability(r.Context(), r.PathValue("name"))
	return a.respond(w, r, av, err)
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

// List paging: ?page= (1-based) and ?limit=, as Gitea's API takes them.
const (
	defaultLimit = 20
	maxLimit     = 100
)

// pageOf reads ?page= and ?limit= for every list. As in Gitea, 0 (like
// none) means the default: Gitea's Go SDK sends page=0 and limit=0 when its
// caller sets none. A negative or non-numeric value is refused.
// pageSlice is page p of a list held in memory (git refs, files, reviews).
func pageSlice[T any](items []T, p index.Page) []T {
	from := min(len(items), (p.Number-1)*p.Limit)
	return items[from:min(len(items), from+p.Limit)]
}

func pageOf(r *http.Request) (index.Page, error) { return pageWithLimit(r, defaultLimit) }

// pageWithLimit is pageOf with limit as the default page size.
func pageWithLimit(r *http.Request, limit int) (index.Page, error) {
	p := index.Page{Number: 1, Limit: limit}
	q := r.URL.Query()
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > math.MaxInt32 {
			return p, usererr.InvalidField("page", "invalid_page", "page must be a whole number from 1 up (0 is the first page)")
		}
		p.Number = max(n, 1)
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return p, usererr.InvalidField("limit", "invalid_limit", fmt.Sprintf("limit must be a whole number from 1 to %d (0 is the default, %d)", maxLimit, limit))
		}
		if n > 0 {
			p.Limit = min(n, maxLimit)
		}
	}
	return p, nil
}

// respondList writes one page of a list with X-Total-Count and a Link
// header (next, last, first, prev) as GitHub and Gitea do.
func (a *API) respondList(w http.ResponseWriter, r *http.Request, p index.Page, total int64, items any, err error) error {
	if err != nil {
		return err
	}
	w.Header().Set("X-Total-Count", strconv.FormatInt(total, 10))
	last := max(1, int((total+int64(p.Limit)-1)/int64(p.Limit)))
	var links []string
	link := func(page int, rel string) {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(page))
		q.Set("limit", strconv.Itoa(p.Limit))
		links = append(links, fmt.Sprintf(`<%s?%s>; rel="%s"`, r.URL.Path, q.Encode(), rel))
	}
	if p.Number < last {
		link(p.Number+1, "next")
		link(last, "last")
	}
	if p.Number > 1 {
		link(1, "first")
		link(min(p.Number-1, last), "prev")
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	writeJSON(w, http.StatusOK, items)
	return nil
}
