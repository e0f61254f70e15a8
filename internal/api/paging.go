package api

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Lists: ?page= and ?limit= read once (pageOf), a page of a list in memory
// (pageSlice), and the answer with Gitea's X-Total-Count and Link headers
// (respondList).

// List paging: ?page= (1-based) and ?limit=, as Gitea's API takes them.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// PageSlice is page p of a list held in memory (git refs, files, reviews).
func PageSlice[T any](items []T, p index.Page) []T {
	from := min(len(items), (p.Number-1)*p.Limit)
	return items[from:min(len(items), from+p.Limit)]
}

// PageOf reads ?page= and ?limit= for every list. As in Gitea, 0 (like
// none) means the default: Gitea's Go SDK sends page=0 and limit=0 when its
// caller sets none. A negative or non-numeric value is refused.
func PageOf(r *http.Request) (index.Page, error) { return PageWithLimit(r, DefaultLimit) }

// PageWithLimit is pageOf with limit as the default page size.
func PageWithLimit(r *http.Request, limit int) (index.Page, error) {
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
			return p, usererr.InvalidField("limit", "invalid_limit", fmt.Sprintf("limit must be a whole number from 1 to %d (0 is the default, %d)", MaxLimit, limit))
		}
		if n > 0 {
			p.Limit = min(n, MaxLimit)
		}
	}
	return p, nil
}

// EncodedJSON is a value of type T already encoded as JSON (IssuesJSON),
// which RespondList writes as it is. T names what the bytes hold, for the
// OpenAPI document, which documents an EncodedJSON[T] as a T.
type EncodedJSON[T any] []byte

func (e EncodedJSON[T]) encoded() []byte { return e }

// encodedJSON is an EncodedJSON of any type.
type encodedJSON interface{ encoded() []byte }

// maxItemJSON bounds the encoded list items kept: about ten thousand
// issues of a page's shape.
const maxItemJSON = 32 << 20

// RespondList writes one page of a list with X-Total-Count and a Link
// header (next, last, first, prev) as GitHub and Gitea do.
func (a *API) RespondList(w http.ResponseWriter, r *http.Request, p index.Page, total int64, items any, err error) error {
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
	if e, ok := items.(encodedJSON); ok {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		w.Write(append(e.encoded(), '\n')) // as json.Encoder ends a value
		return nil
	}
	WriteJSON(w, http.StatusOK, items)
	return nil
}
