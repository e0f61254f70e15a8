package scenario_test

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
)

// TestMain lets the test binary run git's hooks for the scripts' pushes.
func TestMain(m *testing.M) { forgetest.Main(m) }

// people are the wallets a script can sign in as; each is funded at
// genesis, so it can stake and propose.
var people = []string{"alice", "bob", "carol"}

// run is one script's node and the people signed in on it.
type run struct {
	node  *forgetest.Node
	keys  map[string]*ecdsa.PrivateKey
	users map[string]*forgetest.User
}

const runKey = "scenario"

// TestScenarios runs every testdata/*.txtar script, each on a node of its
// own. Commands (besides testscript's exec, cd, stdout, cmp...):
//
//	signin NAME                      NAME signs in; $NAME is their username,
//	                                 $NAME_address their wallet's address
//	api [-as NAME] METHOD PATH [JSON] calls the API (anonymously without -as);
//	                                 stdout is "status N" and the body; it
//	                                 fails on a 4xx or 5xx (use ! to expect one)
//	json VAR PATH                    sets $VAR from the last API answer (a.b.0.c)
//	git [-as NAME] ARGS...           runs git with NAME's token for $URL
//	sign NAME KIND JSON              NAME's wallet signs a chain transaction
//	blocks N                         waits for N more blocks
func TestScenarios(t *testing.T) {
	forgetest.Long(t)
	testscript.Run(t, testscript.Params{
		Dir:   "testdata",
		Setup: setup,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"signin": signin, "api": api, "json": jsonVar, "git": git, "sign": sign, "blocks": blocks,
		},
	})
}

// setup starts the script's node: short votes, and the people funded.
func setup(env *testscript.Env) error {
	t, ok := env.T().(testing.TB)
	if !ok {
		return fmt.Errorf("testscript's T is not a testing.TB")
	}
	r := &run{keys: map[string]*ecdsa.PrivateKey{}, users: map[string]*forgetest.User{}}
	var alloc []ledger.Allocation
	for _, name := range people {
		key, _ := crypto.GenerateKey()
		r.keys[name] = key
		alloc = append(alloc, ledger.Allocation{Address: crypto.PubkeyToAddress(key.PublicKey), Amount: 1_000_000_000})
	}
	r.node = forgetest.Start(t, forgetest.WithGenesis(func(g *app.Genesis) {
		g.Allocations = append(g.Allocations, alloc...)
		g.Params.Gov = app.DefaultParams().Gov
		g.Params.Gov.VotingPeriodBlocks, g.Params.Gov.TimelockBlocks = 8, 0
		g.Params.Gov.ProposalDeposit, g.Params.Gov.MinProposerStake = 1_000, 10_000
	}))
	env.Setenv("URL", r.node.URL)
	env.Values[runKey] = r
	return nil
}

func runOf(ts *testscript.TestScript) *run { return ts.Value(runKey).(*run) }

func signin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: signin NAME")
	}
	r := runOf(ts)
	key, ok := r.keys[args[0]]
	if !ok {
		ts.Fatalf("no such person %q: one of %v", args[0], people)
	}
	u := r.node.NewUserWith(key)
	r.users[args[0]] = u
	ts.Setenv(args[0], u.Name())
	ts.Setenv(args[0]+"_address", u.Address.Hex())
}

// as takes a leading "-as NAME" off args and returns that user.
func as(ts *testscript.TestScript, args []string) (*forgetest.User, []string) {
	if len(args) < 2 || args[0] != "-as" {
		return nil, args
	}
	u, ok := runOf(ts).users[args[1]]
	if !ok {
		ts.Fatalf("%s has not signed in", args[1])
	}
	return u, args[2:]
}

func api(ts *testscript.TestScript, neg bool, args []string) {
	u, args := as(ts, args)
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: api [-as NAME] METHOD PATH [JSON]")
	}
	var body io.Reader
	if len(args) == 3 {
		body = strings.NewReader(args[2])
	}
	req, err := http.NewRequest(args[0], runOf(ts).node.URL+args[1], body)
	ts.Check(err)
	req.Header.Set("Content-Type", "application/json")
	if u != nil {
		req.Header.Set("Authorization", "token "+u.Token)
	}
	res, err := http.DefaultClient.Do(req)
	ts.Check(err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(".answer.json"), raw, 0o644))
	fmt.Fprintf(ts.Stdout(), "status %d\n%s\n", res.StatusCode, raw)
	failed := res.StatusCode >= 400
	if failed && !neg {
		ts.Fatalf("%s %s: status %d: %s", args[0], args[1], res.StatusCode, raw)
	}
	if !failed && neg {
		ts.Fatalf("%s %s: status %d, want a refusal", args[0], args[1], res.StatusCode)
	}
}

// jsonVar reads a dotted path (numbers index arrays) from the last answer.
func jsonVar(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: json VAR PATH")
	}
	var v any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(".answer.json")), &v))
	for _, step := range strings.Split(args[1], ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[step]
		case []any:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(x) {
				ts.Fatalf("%s: no element %q", args[1], step)
			}
			v = x[i]
		default:
			ts.Fatalf("%s: nothing at %q", args[1], step)
		}
	}
	switch x := v.(type) {
	case string:
		ts.Setenv(args[0], x)
	case float64:
		ts.Setenv(args[0], strconv.FormatFloat(x, 'f', -1, 64))
	default:
		raw, _ := json.Marshal(x)
		ts.Setenv(args[0], string(raw))
	}
}

func git(ts *testscript.TestScript, neg bool, args []string) {
	u, args := as(ts, args)
	if u != nil {
		auth := base64.StdEncoding.EncodeToString([]byte("git:" + u.Token))
		args = append([]string{"-c", "http.extraHeader=Authorization: Basic " + auth}, args...)
	}
	out, err := runOf(ts).node.TryGit(ts.MkAbs("."), args...)
	fmt.Fprint(ts.Stdout(), out)
	if err != nil && !neg {
		ts.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if err == nil && neg {
		ts.Fatalf("git %s succeeded, want a refusal", strings.Join(args, " "))
	}
}

// sign has NAME's wallet sign a chain transaction and relays it to
// POST /api/v1/chain/txs, as the web app's wallet screens do.
func sign(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: sign NAME KIND JSON")
	}
	r := runOf(ts)
	key, ok := r.keys[args[0]]
	if !ok {
		ts.Fatalf("no such person %q", args[0])
	}
	msg := map[string]any{}
	ts.Check(json.Unmarshal([]byte(args[2]), &msg))
	code := relay(ts, r, key, tx.Kind(args[1]), msg)
	if (code != 0) != neg {
		ts.Fatalf("%s %s: code %d", args[0], args[1], code)
	}
}

func relay(ts *testscript.TestScript, r *run, key *ecdsa.PrivateKey, kind tx.Kind, msg map[string]any) uint32 {
	addr := crypto.PubkeyToAddress(key.PublicKey)
	msg["from"] = addr.Hex()
	msg["nonce"] = strconv.FormatUint(r.node.Nonce(addr), 10)
	env, err := tx.Sign(key, kind, msg, r.node.Chain.Params().ChainID)
	ts.Check(err)
	raw, err := json.Marshal(env)
	ts.Check(err)
	res, err := http.Post(r.node.URL+"/api/v1/chain/txs", "application/json", strings.NewReader(string(raw)))
	ts.Check(err)
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	ts.Check(err)
	fmt.Fprintf(ts.Stdout(), "status %d\n%s\n", res.StatusCode, answer)
	var out struct {
		Code uint32 `json:"code"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(answer, &out) != nil {
		return 1
	}
	return out.Code
}

// blocks waits for N more blocks; the chain makes none while idle, so the
// first person sends themselves a unit of the token once per block.
func blocks(ts *testscript.TestScript, neg bool, args []string) {
	n, err := strconv.Atoi(strings.Join(args, ""))
	if neg || err != nil || n < 1 {
		ts.Fatalf("usage: blocks N")
	}
	r := runOf(ts)
	key := r.keys[people[0]]
	to := crypto.PubkeyToAddress(key.PublicKey).Hex()
	deadline := time.Now().Add(time.Minute)
	for start := r.node.Chain.Height(); r.node.Chain.Height() < start+uint64(n); {
		if time.Now().After(deadline) {
			ts.Fatalf("no %d blocks in a minute", n)
		}
		if code := relay(ts, r, key, tx.KindTransfer, map[string]any{"to": to, "amount": "1"}); code != 0 {
			ts.Fatalf("a block's transfer: code %d", code)
		}
	}
}
