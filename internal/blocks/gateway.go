package blocks

import (
	"context"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/ipfs/boxo/blockservice"
	"github.com/ipfs/boxo/blockstore"
	"github.com/ipfs/boxo/exchange/offline"
	"github.com/ipfs/boxo/gateway"
	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	ipld "github.com/ipfs/go-ipld-format"
	"github.com/multiformats/go-multihash"
	"github.com/prometheus/client_golang/prometheus"
)

// RawType is the media type of a raw block.
const RawType = "application/vnd.ipld.raw"

// CARType is the media type of a CAR stream.
const CARType = "application/vnd.ipld.car"

// queueWait bounds how long a request for a missing block waits for the
// queue of pushes to empty: a large push's objects take seconds to store.
const queueWait = time.Minute

// Gateway serves the store as an IPFS trustless gateway
// (specs.ipfs.tech/http-gateways/trustless-gateway), with boxo's gateway:
//
//   - GET and HEAD /ipfs/{cid} as a raw block (?format=raw, or Accept:
//     application/vnd.ipld.raw) or a CAR (?format=car, or Accept:
//     application/vnd.ipld.car) with dag-scope=block, entity or all
//     (the default); a CAR may name a path inside the object,
//     /ipfs/{commit}/tree/README.md/hash (boxo's walk, which stops 1,024
//     path segments deep: about 500 commits of history);
//   - the probe /ipfs/bafkqaaa (the empty identity block): 200, empty;
//   - /ipns/...: 501, as this node resolves no names.
//
// Clients verify every block against its CID. The CAR walk (car.go) is
// depth-first in the git-raw data model's order (gitraw.go), each block once:
// a commit, its tree, that tree's entries in git's order (each subtree
// whole before the next entry), then the commit's parents in order, each
// the same way, skipping blocks already sent (dups=n; a request for dups=y
// is a 406, as revisiting shared history grows exponentially with the
// merges in it). dag-scope=entity is the block itself, as for any codec
// but UnixFS.
//
// A block missing while pushes wait in the queue (queue.go) is looked up
// again once the queue is empty, so a client that fetches right after a
// push gets its objects.
func (s *Store) Gateway(log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	bs := blockstore.NewIdStore(settlingStore{Blockstore: s.Blockstore(), s: s})
	blocksBackend, err := gateway.NewBlocksBackend(blockservice.New(bs, offline.Exchange(bs)))
	if err != nil {
		// It fails only on an invalid option, and none is given.
		panic("blocks: gateway backend: " + err.Error())
	}
	backend := carBackend{BlocksBackend: blocksBackend, bs: bs, log: log}
	h := gateway.NewHandler(gateway.Config{
		DeserializedResponses: false, // trustless: raw blocks and CARs only
		NoDNSLink:             true,
		DisableHTMLErrors:     true,
		DeprecatedXIpfsPath:   true, // clients of the earlier gateway read it
		// The node's /metrics counts /ipfs requests by route; boxo's own
		// histograms stay out of the process-wide registry.
		MetricsRegistry: prometheus.NewRegistry(),
	}, backend)
	h = gateway.NewHeaders(nil).WithDeprecatedXIpfsPath().ApplyCors().Wrap(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "/ipns" || strings.HasPrefix(p, "/ipns/") {
			plainError(w, http.StatusNotImplemented, "This gateway serves /ipfs/ only: it resolves no IPNS names or DNSLinks.")
			return
		}
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			if status, msg := s.refuse(r); status != 0 {
				plainError(w, status, msg)
				return
			}
		}
		rec := &recorder{ResponseWriter: w, head: r.Method == http.MethodHead}
		h.ServeHTTP(rec, r)
		if rec.status >= 500 && rec.status != http.StatusNotImplemented {
			log.ErrorContext(r.Context(), "serve /ipfs", "path", r.URL.Path, "status", rec.status)
		}
	})
}

// refuse answers what boxo would serve otherwise than the spec asks:
//   - a request naming no format at all is a 400 (boxo: 406);
//   - a CAR with duplicates (dups=y) is a 406: this gateway sends each block
//     once (boxo would walk shared history again at every merge reaching it);
//   - a CAR whose root block is not here is a 404 (boxo: 200 and an empty CAR).
func (s *Store) refuse(r *http.Request) (int, string) {
	q := r.URL.Query()
	format := q.Get("format")
	accept := strings.Join(r.Header.Values("Accept"), ",")
	if format == "" && strings.TrimSpace(accept) == "" {
		return http.StatusBadRequest, "This is a trustless gateway: ask for a raw block (?format=raw or Accept: " + RawType + ") or a CAR (?format=car or Accept: " + CARType + ")."
	}
	// boxo reads the first application/vnd.ipld.* type of Accept, with
	// ?format and ?car-dups over it.
	var acceptType string
	var params map[string]string
	for part := range strings.SplitSeq(accept, ",") {
		if part = strings.TrimSpace(part); strings.HasPrefix(part, "application/vnd.ipld") {
			acceptType, params, _ = mime.ParseMediaType(part)
			break
		}
	}
	if format != "car" && (format != "" || acceptType != CARType) {
		return 0, ""
	}
	dups := q.Get("car-dups")
	if dups == "" && acceptType == CARType {
		dups = params["dups"]
	}
	if dups == "y" {
		return http.StatusNotAcceptable, "This gateway sends each block of a CAR once: ask for dups=n."
	}
	// A CID boxo cannot parse gets boxo's own answer.
	first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/ipfs/"), "/")
	if c, err := cid.Decode(first); err == nil && !s.hasRoot(r.Context(), c) {
		return http.StatusNotFound, "No block with this CID is stored on this node."
	}
	return 0, ""
}

// hasRoot reports whether the block c is here, or will be once the queued
// pushes are stored; identity CIDs hold their block.
func (s *Store) hasRoot(ctx context.Context, c cid.Cid) bool {
	if c.Prefix().MhType == multihash.IDENTITY || s.Has(c) {
		return true
	}
	return settlingStore{s: s}.settle(ctx) && s.Has(c)
}

// errHeadOnly stops a body written in answer to HEAD.
var errHeadOnly = errors.New("blocks: no body in answer to HEAD")

// recorder keeps the status sent. In answer to HEAD it refuses the body
// after the headers: boxo writes a CAR's body for HEAD too, walking the
// whole DAG only to have it discarded.
type recorder struct {
	http.ResponseWriter
	head   bool
	status int
}

func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.head {
		return 0, errHeadOnly
	}
	return w.ResponseWriter.Write(p)
}

func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// settlingStore is the gateway's view of the blockstore: a block that is
// not there while pushes are queued is looked for again once they are
// stored (or queueWait passes), before it is reported missing.
type settlingStore struct {
	blockstore.Blockstore
	s *Store
}

func (b settlingStore) Get(ctx context.Context, c cid.Cid) (blockformat.Block, error) {
	blk, err := b.Blockstore.Get(ctx, c)
	if ipld.IsNotFound(err) && b.settle(ctx) {
		blk, err = b.Blockstore.Get(ctx, c)
	}
	return blk, err
}

func (b settlingStore) GetSize(ctx context.Context, c cid.Cid) (int, error) {
	n, err := b.Blockstore.GetSize(ctx, c)
	if ipld.IsNotFound(err) && b.settle(ctx) {
		n, err = b.Blockstore.GetSize(ctx, c)
	}
	return n, err
}

// settle waits for the queue to empty; false when nothing was queued or it
// did not empty in time.
func (b settlingStore) settle(ctx context.Context) bool {
	if b.s.Queued() == 0 {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, queueWait)
	defer cancel()
	return b.s.Settle(ctx) == nil
}

func plainError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write([]byte(msg + "\n"))
}
