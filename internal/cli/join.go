package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	chainnode "github.com/dforge/dforge/internal/chain/node"
)

// join makes a node for a running network, without anyone's permission
// and without a genesis change: it fetches the genesis and the peers from
// any node's public URL, writes its own keys, then serves (syncing,
// registering its node record with its own key, replicating). The flags
// after --peer and --data are serve's.
func join(ctx context.Context, args []string, out io.Writer) error {
	fl := flag.NewFlagSet("join", flag.ContinueOnError)
	peer := fl.String("peer", "", "public `URL` of any node of the network, e.g. https://forge.example.org")
	data := fl.String("data", envOr("DFORGE_DATA", "./data"), "data directory of the new node (env DFORGE_DATA)")
	err := fl.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return err
	}
	if *peer == "" {
		return errors.New("join: --peer URL is required: the public URL of a node of the network")
	}
	if err := Join(ctx, *peer, *data); err != nil {
		return err
	}
	fmt.Fprintf(out, "joined the network of %s in %s\n", *peer, *data)
	return serve(ctx, append([]string{"--data", *data}, fl.Args()...), out)
}

// Join writes a data dir for a node of the network that peer serves.
func Join(ctx context.Context, peer, dataDir string) error {
	base := strings.TrimRight(peer, "/")
	genesis, err := fetch(ctx, base+"/api/v1/chain/genesis")
	if err != nil {
		return fmt.Errorf("join: %w", err)
	}
	raw, err := fetch(ctx, base+"/api/v1/chain/peers")
	if err != nil {
		return fmt.Errorf("join: %w", err)
	}
	var peers struct {
		Peers []string `json:"peers"`
	}
	if err := json.Unmarshal(raw, &peers); err != nil || len(peers.Peers) == 0 {
		return fmt.Errorf("join: %s lists no peers", base)
	}
	if _, err := operatorAddress(dataDir); err != nil {
		return fmt.Errorf("join: %w", err)
	}
	home := filepath.Join(dataDir, "chain", "comet")
	return chainnode.Join(chainnode.Config{Home: home}, genesis, peers.Peers)
}

// fetch GETs url and returns its body, refusing any answer but 200.
func fetch(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil || res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: status %d %v", url, res.StatusCode, err)
	}
	return body, nil
}
