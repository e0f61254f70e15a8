package node

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	cmtcfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/types"

	"github.com/dforge/dforge/internal/chain/tx"
)

// TestConfigFileRoundTrip writes a config with CometBFT's template and reads
// it back: every field the template writes must survive.
func TestConfigFileRoundTrip(t *testing.T) {
	want := tunedConfig()
	want.Moniker = "validator-1"
	want.DBPath = `da'ta\"x` // the template escapes paths with text/template's js
	want.P2P.PersistentPeers = "a@127.0.0.1:1,b@127.0.0.1:2"
	want.RPC.CORSAllowedOrigins = []string{"https://a.example", "*"}
	want.StateSync.RPCServers = []string{"x:1", "y:2"}
	want.StateSync.ChunkFetchers = 7
	want.Consensus.TimeoutCommit = 3 * time.Millisecond
	want.Storage.Pruning.DataCompanion.InitialBlockRetainHeight = 42
	path := filepath.Join(t.TempDir(), "config.toml")
	cmtcfg.WriteConfigFile(path, want)

	got := cmtcfg.DefaultConfig()
	if err := readConfigFile(path, got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip differs:\n got %+v\nwant %+v", got, want)
	}
}

func TestConfigFileRejectsUnknownSyntax(t *testing.T) {
	for _, text := range []string{
		"[rpc]\ncors_allowed_origins = [\n\"a\",\n]\n",
		"[[p2p]]\n",
		"[rpc]\nunsafe = maybe\n",
		"moniker\n",
	} {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := readConfigFile(path, cmtcfg.DefaultConfig()); err == nil {
			t.Errorf("accepted %q", text)
		}
	}
}

// TestInitKeepsFilesAndOverrides checks Init writes a home once, that a second
// Init changes nothing, and that explicit addresses override config.toml.
func TestInitKeepsFilesAndOverrides(t *testing.T) {
	home := t.TempDir()
	if err := Init(Config{Home: home}); err == nil {
		t.Fatal("Init without a chain id succeeded")
	}
	cfg := Config{Home: home, ChainID: "c1", AppState: []byte(`{"treasury":1}`)}
	if err := Init(cfg); err != nil {
		t.Fatal(err)
	}
	files := snapshot(t, home)
	if err := Init(Config{Home: home, ChainID: "other"}); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, home); !reflect.DeepEqual(after, files) {
		t.Fatal("second Init changed the home")
	}
	if !strings.Contains(files["config/genesis.json"], `"treasury": 1`) {
		t.Fatalf("genesis lacks app state:\n%s", files["config/genesis.json"])
	}
	cc, err := cometConfig(Config{Home: home, RPCAddr: "tcp://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if cc.RPC.ListenAddress != "tcp://127.0.0.1:1" || cc.P2P.ListenAddress != DefaultP2PAddr {
		t.Fatalf("addresses: rpc %s p2p %s", cc.RPC.ListenAddress, cc.P2P.ListenAddress)
	}
	if cc.Consensus.CreateEmptyBlocks || cc.Consensus.CreateEmptyBlocksInterval != DefaultEmptyBlockInterval {
		t.Fatalf("empty blocks: create %v, interval %s", cc.Consensus.CreateEmptyBlocks, cc.Consensus.CreateEmptyBlocksInterval)
	}
}

func snapshot(t *testing.T, home string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(home, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(home, path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestTestnetConfigs(t *testing.T) {
	dir := t.TempDir()
	if err := Testnet(dir, 3, "tn", nil); err != nil {
		t.Fatal(err)
	}
	genesis := ""
	for i := range 3 {
		cc, err := cometConfig(Config{Home: TestnetHome(dir, i)})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(strings.FieldsFunc(cc.P2P.PersistentPeers, func(r rune) bool { return r == ',' })); n != i {
			t.Fatalf("node%d has %d persistent peers, want %d (one dialer per pair): %q", i, n, i, cc.P2P.PersistentPeers)
		}
		if !cc.P2P.AllowDuplicateIP || cc.P2P.AddrBookStrict {
			t.Fatalf("node%d: duplicate IPs or strict address book not set for localhost", i)
		}
		data, err := os.ReadFile(cc.GenesisFile())
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && string(data) != genesis {
			t.Fatalf("node%d genesis differs from node0's", i)
		}
		genesis = string(data)
	}
	if err := Testnet(dir, 3, "tn", nil); err == nil {
		t.Fatal("Testnet overwrote an existing network")
	}
}

// The largest transaction the app takes (a Forge action) must fit the
// mempool, a block and an RPC body (hex-encoded, in JSON).
func TestLimitsFitTheLargestTransaction(t *testing.T) {
	cc := tunedConfig()
	largest := int64(tx.MaxForgeTxBytes)
	if int64(cc.Mempool.MaxTxBytes) < largest || cc.RPC.MaxBodyBytes < 2*largest+1024 ||
		types.DefaultConsensusParams().Block.MaxBytes < 4*largest {
		t.Fatalf("mempool %d, rpc body %d, block %d bytes for %d-byte transactions",
			cc.Mempool.MaxTxBytes, cc.RPC.MaxBodyBytes, types.DefaultConsensusParams().Block.MaxBytes, largest)
	}
}
