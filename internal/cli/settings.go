package cli

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/api"
)

// settingsSummary is what serve runs with, for the admin console to show
// read-only: every flag's effective value, the database's password left
// out.
func settingsSummary(cfg ServeConfig) []api.Setting {
	return []api.Setting{
		{Name: "addr", Value: cfg.Addr, Env: "DFORGE_ADDR"},
		{Name: "data", Value: cfg.DataDir, Env: "DFORGE_DATA"},
		{Name: "db", Value: redactDSN(cfg.DB), Env: "DFORGE_DB"},
		{Name: "rpc-addr", Value: cfg.RPCAddr, Env: "DFORGE_RPC_ADDR"},
		{Name: "p2p-addr", Value: cfg.P2PAddr, Env: "DFORGE_P2P_ADDR"},
		{Name: "ssh-addr", Value: cfg.SSHAddr, Env: "DFORGE_SSH_ADDR"},
		{Name: "public-url", Value: cfg.PublicURL, Env: "DFORGE_PUBLIC_URL"},
		{Name: "allowed-origin", Value: strings.Join(cfg.AllowedOrigins, ", "), Env: "DFORGE_ALLOWED_ORIGINS"},
		{Name: "maintainer", Value: joinAddresses(cfg.Maintainers), Env: "DFORGE_MAINTAINERS"},
		{Name: "admin", Value: joinAddresses(cfg.Admins), Env: "DFORGE_ADMINS"},
		{Name: "empty-blocks", Value: cfg.EmptyBlocks.String(), Env: "DFORGE_EMPTY_BLOCKS"},
		{Name: "p2p-listen", Value: strings.Join(cfg.IPFSListen, ", "), Env: "DFORGE_P2P_LISTEN"},
		{Name: "ipfs-peer", Value: strings.Join(cfg.IPFSPeers, ", "), Env: "DFORGE_IPFS_PEERS"},
		{Name: "seed", Value: strings.Join(cfg.Seed, ", "), Env: "DFORGE_SEED"},
		{Name: "webhook-allow-private", Value: boolWord(cfg.WebhookAllowPrivate), Env: "DFORGE_WEBHOOK_ALLOW_PRIVATE"},
		{Name: "version", Value: Version},
	}
}

// dsnPassword matches a password in a key=value PostgreSQL DSN.
var dsnPassword = regexp.MustCompile(`(?i)(password\s*=\s*)('[^']*'|\S+)`)

// redactDSN hides a database DSN's password, in URL or key=value form.
func redactDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.Scheme != "" {
		if _, has := u.User.Password(); has { // nil-safe
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	return dsnPassword.ReplaceAllString(dsn, "${1}xxxxx")
}

func joinAddresses(addrs []common.Address) string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = a.Hex()
	}
	return strings.Join(out, ", ")
}

func boolWord(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
