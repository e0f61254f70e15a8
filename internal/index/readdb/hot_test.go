package readdb

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

func TestWrittenNameKeepsHotColumnsApart(t *testing.T) {
	for q, want := range map[string]string{
		`UPDATE chain_accounts SET balance = balance + $2, staked = staked + $3, unbonding = unbonding + $4, nonce = nonce + $5 WHERE address = $1`: "chain_accounts#hot",
		`UPDATE chain_accounts SET balance = balance + $2, nonce = nonce + $5, username = $6 WHERE address = $1`:                                    "chain_accounts",
		`UPDATE chain_accounts SET balance = (SELECT MAX(a, b) FROM x), nonce = 1`:                                                                  "chain_accounts#hot",
		`UPDATE chain_accounts SET (balance, username) = (1, 'a')`:                                                                                  "chain_accounts",
		`UPDATE chain_accounts SET balance = 1 FROM x WHERE x.a = chain_accounts.address`:                                                           "chain_accounts",
		`UPDATE chain_index SET height = $1 WHERE id = 1 AND height = $2`:                                                                           "chain_index#hot",
		`UPDATE chain_index SET wide_names = TRUE WHERE id = 1`:                                                                                     "chain_index",
		`INSERT INTO chain_accounts (address, balance) VALUES ($1, 0) ON CONFLICT (address) DO UPDATE SET balance = 1`:                              "chain_accounts",
		`DELETE FROM chain_index`:                                "chain_index",
		`UPDATE forge_repos SET balance = 1`:                     "forge_repos",
		`UPDATE chain_accounts SET balance = 1 -- ,username = 2`: "chain_accounts#hot",
	} {
		got, ok := writtenName(q)
		if !ok || got != want {
			t.Errorf("writtenName(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
}

// writtenName keeps its answers by text, a bounded number of them: the
// same text answers the same the second time, and texts past the bound
// are still answered, only not kept.
func TestWrittenNameKeepsAnswersBounded(t *testing.T) {
	for i := range maxWords + 50 {
		q := fmt.Sprintf("UPDATE memo_table_%d SET a = $1 WHERE id = $2", i)
		for range 2 {
			if got, ok := writtenName(q); !ok || got != fmt.Sprintf("memo_table_%d", i) {
				t.Fatalf("writtenName(%q) = %q, %v", q, got, ok)
			}
		}
	}
	if n := written.n.Load(); n > maxWords {
		t.Fatalf("%d answers kept, more than the bound %d", n, maxWords)
	}
	if got, ok := writtenName("SELECT 1"); !ok || got != "" {
		t.Fatalf("a read past the bound: %q, %v", got, ok)
	}
}

func TestReadsDependOnHotColumnsOnlyWhenTheyNameThem(t *testing.T) {
	name := `SELECT COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '') FROM forge_issues i LEFT JOIN chain_accounts a ON a.address = i.author`
	for q, want := range map[string]map[string]bool{
		name:                                  {"chain_accounts": true, "chain_index": true, "chain_accounts#hot": false, "chain_index#hot": false},
		`SELECT COUNT(*) FROM chain_accounts`: {"chain_accounts": true, "chain_accounts#hot": false},
		`SELECT balance, staked FROM chain_accounts WHERE address = $1`: {"chain_accounts": true, "chain_accounts#hot": true},
		`SELECT a.* FROM chain_accounts a`:                              {"chain_accounts#hot": true},
		`SELECT height, genesis_hash FROM chain_index WHERE id = 1`:     {"chain_index#hot": true},
		`SELECT SUM(x * 2) FROM chain_accounts`:                         {"chain_accounts#hot": true},
		`SELECT nonce FROM chain_txs`:                                   {"chain_txs": true, "chain_accounts#hot": false},
		// Qualified columns: by the table's alias, its name, another
		// table's alias, a subquery's.
		`SELECT c.height FROM forge_comments c LEFT JOIN chain_index x ON x.id = 1`:          {"chain_index": true, "chain_index#hot": false},
		`SELECT x.height FROM forge_comments c LEFT JOIN chain_index AS x ON x.id = 1`:       {"chain_index#hot": true},
		`SELECT chain_index.height FROM forge_comments c, chain_index`:                       {"chain_index#hot": true},
		`SELECT s.height FROM (SELECT height FROM chain_index) s`:                            {"chain_index#hot": true},
		`SELECT s.nonce FROM chain_accounts a JOIN (SELECT 1 AS nonce) s ON a.id = 1`:        {"chain_accounts#hot": true},
		`SELECT c.nonce FROM forge_comments c JOIN chain_accounts a ON a.address = c.author`: {"chain_accounts": true, "chain_accounts#hot": false},
	} {
		got := sqlWords(q)
		for w, in := range want {
			if slices.Contains(got, w) != in {
				t.Errorf("sqlWords(%q) = %q: has %s = %v, want %v", q, got, w, !in, in)
			}
		}
	}
}

// A block moves its senders' balances and nonces on: an answer that shows
// an account's name stays, and one that shows its balance is read again.
func TestBalanceWritesKeepNames(t *testing.T) {
	f := newCacheFixture(t)
	const addr = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	f.write(t, `INSERT INTO chain_accounts (id, address, balance, staked, unbonding, nonce, username, default_name, created_height)
		VALUES (1, '`+addr+`', 5, 0, 0, 0, NULL, 'user-70997970c51812dc3a01', 1)`)
	var nameReads, balanceReads int
	read := func(col string, reads *int) string {
		t.Helper()
		v, err := Remember(context.Background(), f.db, Key("test", col), func(ctx context.Context) (string, error) {
			*reads++
			var s string
			err := f.db.QueryRow(ctx, `SELECT CAST(`+col+` AS TEXT) FROM chain_accounts WHERE address = $1`, addr).Scan(&s)
			return s, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	read("COALESCE(username, default_name)", &nameReads)
	read("balance", &balanceReads)
	f.write(t, `UPDATE chain_accounts SET balance = balance + 2, nonce = nonce + 1 WHERE address = '`+addr+`'`)

	if got := read("COALESCE(username, default_name)", &nameReads); got != "user-70997970c51812dc3a01" || nameReads != 1 {
		t.Errorf("after a balance write the name is %q, read %d times; want it kept (1 read)", got, nameReads)
	}
	if got := read("balance", &balanceReads); got != "7" || balanceReads != 2 {
		t.Errorf("after a balance write the balance is %q, read %d times; want 7, read again", got, balanceReads)
	}
	f.write(t, `UPDATE chain_accounts SET balance = balance + 1, nonce = nonce + 1, username = 'alice' WHERE address = '`+addr+`'`)
	if got := read("COALESCE(username, default_name)", &nameReads); got != "alice" {
		t.Errorf("after a name claim the name is %q; want alice", got)
	}
	if got := read("balance", &balanceReads); got != "8" {
		t.Errorf("after a name claim the balance is %q; want 8", got)
	}
}
