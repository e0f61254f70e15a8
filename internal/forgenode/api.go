// Package forgenode runs dForge nodes for the benchmarks and the interop
// check (the dforge binary built from this tree, `dforge serve` as a
// subprocess in its own process group) and talks to them from outside, as
// users do: Sign-In with Ethereum, a personal access token, the REST API.
package forgenode

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Client is a signed-in user of the node's API, authenticated by a
// personal access token (`Authorization: token ...`), as Gitea clients are.
type Client struct {
	Base  string
	HTTP  *http.Client
	Login string
	Token string
}

// APIError is a non-2xx answer.
type APIError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	return fmt.Sprintf("%s %s: HTTP %d %s", e.Method, e.Path, e.Status, msg)
}

// SignIn makes a new wallet, signs in with it (EIP-4361, personal_sign)
// and creates an access token with the session.
func SignIn(ctx context.Context, base string) (*Client, error) {
	key, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	c := &Client{Base: base, HTTP: &http.Client{Timeout: 2 * time.Minute}}
	var params struct{ EIP712Domain struct{ ChainID uint64 } }
	if err := c.Call(ctx, "GET", "/api/v1/chain/params", nil, &params, nil); err != nil {
		return nil, err
	}
	var nonce struct{ Nonce string }
	if err := c.Call(ctx, "GET", "/api/v1/auth/nonce", nil, &nonce, nil); err != nil {
		return nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	msg := siweMessage(u.Host, base+"/", crypto.PubkeyToAddress(key.PublicKey), params.EIP712Domain.ChainID, nonce.Nonce, time.Now())
	sig, err := personalSign(key, msg)
	if err != nil {
		return nil, err
	}
	var session struct {
		User      struct{ Login string }
		CSRFToken string
	}
	var cookies []*http.Cookie
	err = c.Call(ctx, "POST", "/api/v1/auth/siwe", map[string]string{"message": msg, "signature": sig}, &session,
		func(res *http.Response) { cookies = res.Cookies() })
	if err != nil {
		return nil, err
	}
	c.Login = session.User.Login
	var token struct{ SHA1 string }
	err = c.Call(ctx, "POST", "/api/v1/users/"+c.Login+"/tokens", map[string]any{"name": "dforge-bench", "scopes": []string{"admin"}}, &token,
		nil, func(req *http.Request) {
			for _, ck := range cookies {
				req.AddCookie(ck)
			}
			req.Header.Set("X-CSRF-Token", session.CSRFToken)
		})
	if err != nil {
		return nil, err
	}
	if token.SHA1 == "" {
		return nil, fmt.Errorf("the new access token came back without its secret")
	}
	c.Token = token.SHA1
	if err := c.delegate(ctx, key, params.EIP712Domain.ChainID); err != nil {
		return nil, err
	}
	return c, nil
}

// delegate is sign-in's second signature: the Delegate the node offers,
// signed and submitted, so that the node may write for the user. A node
// from before the own-keys rules has no such offer (404) and needs none.
func (c *Client) delegate(ctx context.Context, key *ecdsa.PrivateKey, chainID uint64) error {
	var ask struct {
		Needed  bool           `json:"needed"`
		Message map[string]any `json:"message"`
	}
	err := c.Call(ctx, "GET", "/api/v1/user/delegation", nil, &ask, nil)
	if apiErr, ok := err.(*APIError); ok && apiErr.Status == http.StatusNotFound {
		return nil
	}
	if err != nil || !ask.Needed {
		return err
	}
	env, err := tx.Sign(key, tx.KindDelegate, ask.Message, chainID)
	if err != nil {
		return fmt.Errorf("sign the delegation: %w", err)
	}
	if err := c.Call(ctx, "POST", "/api/v1/chain/txs", env, nil, nil); err != nil {
		return fmt.Errorf("submit the delegation: %w", err)
	}
	return nil
}

// siweMessage is an EIP-4361 message as a wallet shows it.
func siweMessage(domain, uri string, addr common.Address, chainID uint64, nonce string, at time.Time) string {
	return fmt.Sprintf("%s wants you to sign in with your Ethereum account:\n%s\n\nSign in to dForge.\n\nURI: %s\nVersion: 1\nChain ID: %d\nNonce: %s\nIssued At: %s",
		domain, addr.Hex(), uri, chainID, nonce, at.UTC().Format(time.RFC3339))
}

// personalSign is EIP-191 personal_sign, with v = 27 or 28 as wallets send it.
func personalSign(key *ecdsa.PrivateKey, msg string) (string, error) {
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	if err != nil {
		return "", err
	}
	sig[crypto.RecoveryIDOffset] += 27
	return hexutil.Encode(sig), nil
}

// Call sends a JSON request (with the token once there is one) and decodes
// a 2xx answer into out. seen, when set, sees the response; edit changes
// the request before it goes.
func (c *Client) Call(ctx context.Context, method, path string, body, out any, seen func(*http.Response), edit ...func(*http.Request)) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "token "+c.Token)
	}
	for _, e := range edit {
		e(req)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if seen != nil {
		seen(res)
	}
	if res.StatusCode/100 != 2 {
		var e struct{ Message string }
		json.Unmarshal(data, &e)
		if e.Message == "" && !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			e.Message = strings.TrimSpace(string(data[:min(len(data), 200)]))
		}
		return &APIError{Method: method, Path: path, Status: res.StatusCode, Message: e.Message}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: decode %q: %w", method, path, data[:min(len(data), 200)], err)
		}
	}
	return nil
}

// Repo is a repository as the API shows it (Gitea's Repository).
type Repo struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	FullName string `json:"full_name"`
	CloneURL string `json:"clone_url"`
	Owner    struct {
		Login string `json:"login"`
	} `json:"owner"`
}

// Path is "owner/name" for API and git paths.
func (r Repo) Path() string {
	if r.FullName != "" {
		return r.FullName
	}
	return r.Owner.Login + "/" + r.Name
}

// DefaultBranch is the default branch of the repositories CreateRepo makes.
const DefaultBranch = "main"

// CreateRepo creates an empty public repository (POST /api/v1/user/repos).
func (c *Client) CreateRepo(ctx context.Context, name string) (*Repo, error) {
	var r Repo
	err := c.Call(ctx, "POST", "/api/v1/user/repos", map[string]any{
		"name": name, "description": "dforge-bench", "private": false, "auto_init": false, "default_branch": DefaultBranch,
	}, &r, nil)
	if err != nil {
		return nil, err
	}
	if r.Name == "" {
		r.Name = name
	}
	if r.Owner.Login == "" {
		r.Owner.Login = c.Login
	}
	return &r, nil
}

// GitURL is the repository's Smart HTTP URL on the node.
func (c *Client) GitURL(r Repo) string { return c.Base + "/" + r.Path() + ".git" }

// WaitForBlocks waits, from outside, until the node has stored the objects
// of the pushes before it as IPFS blocks: its gateway answers for a block
// it does not hold only once its queue of pushes is empty.
func (c *Client) WaitForBlocks(ctx context.Context) (time.Duration, error) {
	never := blocks.CIDForGitObject(strings.Repeat("0", 40)) // no object hashes to zeros
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, c.Base+"/ipfs/"+never.String()+"?format=raw", nil)
	if err != nil {
		return 0, err
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		return 0, fmt.Errorf("/ipfs of a CID never stored answered %d", res.StatusCode)
	}
	return time.Since(start), nil
}
