package actions

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/usererr"
)

// The runtime token is what a job's steps (ACTIONS_RUNTIME_TOKEN) show the
// results service: a JWT (HS256) under a node-local key, naming the run
// and job in the "scp" claim as GitHub's does, which @actions/artifact
// decodes to find its backend ids. It is good while its job runs, and
// at most runtimeTokenTTL.

// runtimeTokenTTL bounds a token's life: GitHub's longest job (6 h) and
// an hour more; a job that ended makes its token useless sooner.
const runtimeTokenTTL = 7 * time.Hour

// runtimeClaims is what a valid runtime token names.
type runtimeClaims struct {
	Run, Job int64
	Repo     uint64
}

type jwtClaims struct {
	Scp  string `json:"scp"`
	TID  int64  `json:"TaskID"`
	RID  int64  `json:"RunID"`
	Repo uint64 `json:"RepoID"`
	Iss  string `json:"iss"`
	Iat  int64  `json:"iat"`
	Nbf  int64  `json:"nbf"`
	Exp  int64  `json:"exp"`
}

var jwtHeader = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))

// tokenKey derives the runtime tokens' and signed URLs' key from the
// node's secrets key (so tokens survive a restart), or makes one for
// this process when the node has none.
func tokenKey(secret []byte) []byte {
	if len(secret) == 0 {
		k := make([]byte, 32)
		if _, err := rand.Read(k); err != nil {
			panic("actions: no randomness for the runtime token key: " + err.Error())
		}
		return k
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("dforge actions runtime tokens"))
	return m.Sum(nil)
}

func (s *Service) sign(msg string) []byte {
	m := hmac.New(sha256.New, s.tokenKey)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

// runtimeToken is job's token in run of repo.
func (s *Service) runtimeToken(run, job int64, repo uint64) string {
	now := s.now()
	body, _ := json.Marshal(jwtClaims{Scp: fmt.Sprintf("Actions.Results:%d:%d", run, job), TID: job, RID: run, Repo: repo,
		Iss: "dforge", Iat: now.Unix(), Nbf: now.Add(-time.Minute).Unix(), Exp: now.Add(runtimeTokenTTL).Unix()})
	signed := jwtHeader + "." + base64.RawURLEncoding.EncodeToString(body)
	return signed + "." + base64.RawURLEncoding.EncodeToString(s.sign(signed))
}

// checkRuntimeToken is the claims of tok when it is this node's, unexpired,
// and its job still runs.
func (s *Service) checkRuntimeToken(ctx context.Context, tok string) (runtimeClaims, error) {
	bad := usererr.New(usererr.Unauthenticated, "bad_token", "the runtime token is not valid")
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || parts[0] != jwtHeader {
		return runtimeClaims{}, bad
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, s.sign(parts[0]+"."+parts[1])) {
		return runtimeClaims{}, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	var c jwtClaims
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return runtimeClaims{}, bad
	}
	if now := s.now().Unix(); now >= c.Exp || now < c.Nbf {
		return runtimeClaims{}, usererr.New(usererr.Unauthenticated, "token_expired", "the runtime token has expired")
	}
	j, err := s.readJob(ctx, c.TID)
	if err != nil || j.RunID != c.RID || j.Repo != c.Repo {
		return runtimeClaims{}, bad
	}
	if j.Status != StatusRunning {
		return runtimeClaims{}, usererr.New(usererr.Unauthenticated, "job_ended", "the runtime token's job is not running")
	}
	return runtimeClaims{Run: c.RID, Job: c.TID, Repo: c.Repo}, nil
}

// JobRepository is the repository a running job's token may read with
// git (the git server asks it of every credential shaped as a JWT), and
// whether secret is such a token: this node's, unexpired, its job running.
func (s *Service) JobRepository(ctx context.Context, secret string) (uint64, bool) {
	c, err := s.checkRuntimeToken(ctx, secret)
	if err != nil {
		return 0, false
	}
	return c.Repo, true
}

// signedURL is base's URL to verb (upload, download) artifact id, good
// for ttl.
func (s *Service) signedURL(base, verb string, id int64, ttl time.Duration) string {
	exp := strconv.FormatInt(s.now().Add(ttl).Unix(), 10)
	sig := hex.EncodeToString(s.sign("artifact " + verb + " " + strconv.FormatInt(id, 10) + " " + exp))
	return fmt.Sprintf("%s%s/artifacts/%d/%s?expires=%s&sig=%s", strings.TrimRight(base, "/"), Prefix, id, verb, exp, sig)
}

// checkSignedURL says whether expires and sig sign verb on artifact id
// and have not expired.
func (s *Service) checkSignedURL(verb string, id int64, expires, sig string) error {
	got, err := hex.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.sign("artifact "+verb+" "+strconv.FormatInt(id, 10)+" "+expires)) {
		return usererr.New(usererr.Forbidden, "bad_signature", "the URL's signature is not valid")
	}
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || s.now().Unix() >= exp {
		return usererr.New(usererr.Forbidden, "url_expired", "the signed URL has expired")
	}
	return nil
}

// ArtifactURL is a signed URL, good for ttl, that serves ready artifact
// id's zip from this node at base (the REST API's redirect).
func (s *Service) ArtifactURL(base string, id int64, ttl time.Duration) string {
	if s.cfg.BaseURL != "" {
		base = s.cfg.BaseURL
	}
	return s.signedURL(base, "download", id, ttl)
}
