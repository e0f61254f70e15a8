package index_test

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
)

// The issue list reads a page through an index and counts apart, and
// reads labels, assignees and pull requests for the whole page at once.
// These tests hold it to a plain reference: the window-function query the
// list used to make, with each issue's labels and assignees read one by
// one.

var (
	named    = common.HexToAddress("0x1000000000000000000000000000000000000001") // claimed a username
	unnamed  = common.HexToAddress("0x2000000000000000000000000000000000000002") // projected, default name
	stranger = common.HexToAddress("0x3000000000000000000000000000000000000003") // never projected
	authors  = []common.Address{named, unnamed, stranger}
)

// seededIndex is an index over a fresh SQLite store seeded with
// seedIssues(n), closed when b ends.
func seededIndex(b *testing.B, n int) *index.Index {
	b.Helper()
	st, err := store.Open(context.Background(), b.TempDir()+"/index.db")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	seedIssues(b, st, n)
	return index.New(quiet, st, nil)
}

// seedIssues writes a projection straight into SQL: repository 1 with n
// issues and pull requests in every combination the filters tell apart,
// repository 2 with a few (which must never show in 1's lists).
func seedIssues(t testing.TB, st *store.Store, n int) {
	t.Helper()
	ctx := context.Background()
	db := st.DB()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO chain_accounts (address, balance, staked, unbonding, nonce, username, default_name, created_height)
		VALUES ($1, 0, 0, 0, 0, 'alice', $2, 1), ($3, 0, 0, 0, 0, NULL, $4, 1)`,
		named.Hex(), names.Default(named), unnamed.Hex(), names.Default(unnamed))
	for _, repo := range []int64{1, 2} {
		exec(`INSERT INTO forge_repos (id, owner, name, lower_name, description, default_branch, protected_branches, private,
			fork_of, stars, forks, watchers, open_issues, open_pulls, created_height, created_time_ns, updated_height, updated_time_ns)
			VALUES ($1, $2, $3, $3, '', 'main', '[]', FALSE, NULL, 0, 0, 0, 0, 0, 1, 1, 1, 1)`, repo, named.Hex(), fmt.Sprintf("r%d", repo))
		for l := int64(1); l <= 3; l++ {
			exec(`INSERT INTO forge_labels (id, repo_id, name, color, description) VALUES ($1, $2, $3, '#00ff00', 'd')`,
				repo*10+l, repo, fmt.Sprintf("label-%d", 4-l)) // names sort against ids
		}
	}
	for repo, count := range map[int64]int{1: n, 2: 5} {
		for i := 1; i <= count; i++ {
			pull := i%3 == 0
			state, closedNS := "open", sql.NullInt64{}
			if i%4 == 0 {
				state, closedNS = "closed", sql.NullInt64{Int64: int64(i) * 3000, Valid: true}
			}
			title := fmt.Sprintf("Issue %d", i)
			if i%10 == 0 {
				title += " about a Fox_50%"
			}
			exec(`INSERT INTO forge_issues (repo_id, number, is_pull, author, title, body, state, state_reason, comments,
				created_height, created_time_ns, updated_height, updated_time_ns, closed_height, closed_time_ns)
				VALUES ($1, $2, $3, $4, $5, $6, $7, '', $8, $9, $10, $9, $11, $12, $13)`,
				repo, i, pull, authors[i%3].Hex(), title, "body of "+title, state, i%5, i, int64(i)*1000, int64(i)*2000,
				sql.NullInt64{Int64: int64(i), Valid: closedNS.Valid}, closedNS)
			for l := int64(1); l <= 3; l++ {
				if i%int(l+4) == 0 {
					exec(`INSERT INTO forge_issue_labels (repo_id, number, label_id) VALUES ($1, $2, $3)`, repo, i, repo*10+l)
				}
			}
			if i%6 == 0 {
				exec(`INSERT INTO forge_issue_assignees (repo_id, number, assignee) VALUES ($1, $2, $3), ($1, $2, $4)`,
					repo, i, stranger.Hex(), named.Hex())
			}
			if pull {
				merged := i%2 == 0
				mergedBy, mergedNS := "", sql.NullInt64{}
				if merged {
					mergedBy, mergedNS = unnamed.Hex(), sql.NullInt64{Int64: int64(i) * 4000, Valid: true}
				}
				exec(`INSERT INTO forge_pulls (repo_id, number, head_repo_id, head_branch, base_branch, head_sha, base_sha, merged,
					merge_sha, merge_style, merged_by, merged_height, merged_time_ns)
					VALUES ($1, $2, $1, $3, 'main', 'h', 'b', $4, 'm', 'merge', $5, $6, $6)`,
					repo, i, fmt.Sprintf("topic-%d", i), merged, mergedBy, mergedNS)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// referenceIssues is the list as the window-function query gave it, each
// issue filled one by one.
func referenceIssues(t *testing.T, db *sql.DB, repo uint64, f index.IssueFilter, p index.Page) ([]uint64, int64) {
	t.Helper()
	args := []any{int64(repo)}
	where := []string{"repo_id = $1"}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if f.IsPull != nil {
		where = append(where, "is_pull = "+arg(*f.IsPull))
	}
	if f.State != "" {
		where = append(where, "state = "+arg(f.State))
	}
	if f.Author != nil {
		where = append(where, "author = "+arg(f.Author.Hex()))
	}
	if f.Label != 0 {
		where = append(where, "EXISTS (SELECT 1 FROM forge_issue_labels l WHERE l.repo_id = forge_issues.repo_id AND l.number = forge_issues.number AND l.label_id = "+arg(int64(f.Label))+")")
	}
	if f.Query != "" {
		q := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(f.Query))
		where = append(where, `lower(title) LIKE `+arg("%"+q+"%")+` ESCAPE '\'`)
	}
	n := len(args)
	rows, err := db.Query(fmt.Sprintf(`SELECT number, COUNT(*) OVER () FROM forge_issues WHERE %s ORDER BY number DESC LIMIT $%d OFFSET $%d`,
		strings.Join(where, " AND "), n+1, n+2), append(args, p.Limit, (p.Number-1)*p.Limit)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var numbers []uint64
	total := int64(-1)
	for rows.Next() {
		var num int64
		if err := rows.Scan(&num, &total); err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, uint64(num))
	}
	if total < 0 {
		if err := db.QueryRow(`SELECT COUNT(*) FROM forge_issues WHERE `+strings.Join(where, " AND "), args...).Scan(&total); err != nil {
			t.Fatal(err)
		}
	}
	return numbers, total
}

// referenceFill is an issue's labels and assignees, read for it alone.
func referenceFill(t *testing.T, db *sql.DB, repo, number uint64) ([]index.Label, []string) {
	t.Helper()
	labels := []index.Label{}
	rows, err := db.Query(`SELECT l.id, l.name, l.color, l.description FROM forge_issue_labels il JOIN forge_labels l ON l.id = il.label_id
		WHERE il.repo_id = $1 AND il.number = $2 ORDER BY l.name, l.id`, int64(repo), int64(number))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var l index.Label
		if err := rows.Scan(&l.ID, &l.Name, &l.Color, &l.Description); err != nil {
			t.Fatal(err)
		}
		labels = append(labels, l)
	}
	rows.Close()
	assignees := []string{}
	rows, err = db.Query(`SELECT assignee FROM forge_issue_assignees WHERE repo_id = $1 AND number = $2 ORDER BY assignee`, int64(repo), int64(number))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		assignees = append(assignees, a)
	}
	rows.Close()
	return labels, assignees
}

func TestIssueListMatchesReference(t *testing.T) {
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		seedIssues(t, st, 240)
		ix := index.New(quiet, st, nil)
		kinds := []*bool{nil, new(false), new(true)}
		author := unnamed
		var filters []index.IssueFilter
		for _, kind := range kinds {
			for _, state := range []string{"", "open", "closed"} {
				for _, a := range []*common.Address{nil, &author} {
					for _, label := range []uint64{0, 11, 13} {
						for _, q := range []string{"", "fox_50%", "nothing"} {
							filters = append(filters, index.IssueFilter{IsPull: kind, State: state, Author: a, Label: label, Query: q})
						}
					}
				}
			}
		}
		pages := []index.Page{{Number: 1, Limit: 50}, {Number: 2, Limit: 50}, {Number: 3, Limit: 7}, {Number: 5, Limit: 50}, {Number: 40, Limit: 7}, {Number: 1, Limit: 1}}
		checked := 0
		for _, f := range filters {
			for _, p := range pages {
				name := fmt.Sprintf("%+v page %d/%d", f, p.Number, p.Limit)
				wantNumbers, wantTotal := referenceIssues(t, st.DB(), 1, f, p)
				got, total, err := ix.Issues(ctx, 1, f, p)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if total != wantTotal {
					t.Errorf("%s: total %d, want %d", name, total, wantTotal)
				}
				var numbers []uint64
				for _, is := range got {
					numbers = append(numbers, is.Number)
				}
				if !reflect.DeepEqual(numbers, wantNumbers) {
					t.Fatalf("%s: numbers %v, want %v", name, numbers, wantNumbers)
				}
				for _, is := range got {
					labels, assignees := referenceFill(t, st.DB(), 1, is.Number)
					if !reflect.DeepEqual(is.Labels, labels) {
						t.Fatalf("%s: #%d labels %v, want %v", name, is.Number, is.Labels, labels)
					}
					var addrs []string
					for _, u := range is.Assignees {
						addrs = append(addrs, u.Address)
					}
					if len(addrs) != len(assignees) || (len(addrs) > 0 && !reflect.DeepEqual(addrs, assignees)) {
						t.Fatalf("%s: #%d assignees %v, want %v", name, is.Number, addrs, assignees)
					}
					one, err := ix.Issue(ctx, 1, is.Number)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(one, is) {
						t.Fatalf("%s: #%d listed as %+v, read alone as %+v", name, is.Number, is, one)
					}
				}
				checked++
			}
		}
		if checked != len(filters)*len(pages) {
			t.Fatalf("checked %d lists", checked)
		}
	})
}

func TestIssueListNamesAndPulls(t *testing.T) {
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		seedIssues(t, st, 60)
		ix := index.New(quiet, st, nil)
		list, total, err := ix.Issues(ctx, 1, index.IssueFilter{}, index.Page{Number: 1, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if total != 60 || len(list) != 60 {
			t.Fatalf("listed %d of %d, want 60", len(list), total)
		}
		wantName := map[string]string{named.Hex(): "alice", unnamed.Hex(): names.Default(unnamed), stranger.Hex(): names.Default(stranger)}
		for _, is := range list {
			if is.Author.Username != wantName[is.Author.Address] {
				t.Errorf("#%d author %+v, want the name %q", is.Number, is.Author, wantName[is.Author.Address])
			}
			for _, u := range is.Assignees {
				if u.Username != wantName[u.Address] {
					t.Errorf("#%d assignee %+v, want the name %q", is.Number, u, wantName[u.Address])
				}
			}
		}
		pulls, err := ix.PullsOf(ctx, 1, list)
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range list {
			pr, ok := pulls[is.Number]
			if ok != is.IsPull {
				t.Fatalf("#%d: pull record %v, is a pull request %v", is.Number, ok, is.IsPull)
			}
			if !ok {
				continue
			}
			want, err := ix.Pull(ctx, 1, is.Number)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(pr, want) {
				t.Errorf("#%d: PullsOf gives %+v, Pull %+v", is.Number, pr, want)
			}
		}
		if none, err := ix.PullsOf(ctx, 1, nil); err != nil || len(none) != 0 {
			t.Fatalf("PullsOf of nothing: %v, %v", none, err)
		}
	})
}

// BenchmarkIssueList is the API's default issue list (open, 50 a page)
// on 10,000 issues.
func BenchmarkIssueList(b *testing.B) {
	ctx := context.Background()
	ix := seededIndex(b, 10000)
	for _, bc := range []struct {
		name string
		f    index.IssueFilter
		p    index.Page
	}{
		{"open", index.IssueFilter{State: "open"}, index.Page{Number: 1, Limit: 50}},
		{"open-issues", index.IssueFilter{State: "open", IsPull: new(false)}, index.Page{Number: 1, Limit: 50}},
		{"closed-page-20", index.IssueFilter{State: "closed"}, index.Page{Number: 20, Limit: 50}},
		{"all-query", index.IssueFilter{Query: "fox"}, index.Page{Number: 1, Limit: 50}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := ix.Issues(ctx, 1, bc.f, bc.p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
