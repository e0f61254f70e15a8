package actions

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/usererr"
)

// The results service's artifact API, as @actions/artifact v2 (behind
// upload-artifact@v4 and download-artifact@v4) speaks it: Twirp with
// protobuf's JSON at ResultsPrefix, authorized by the job's runtime
// token, and signed URLs on this node that take the zip as Azure's blob
// SDK sends it and serve it back.

// ResultsPrefix is where the Twirp artifact service is served: the
// client calls ACTIONS_RESULTS_URL + this.
const ResultsPrefix = "/twirp/github.actions.results.api.v1.ArtifactService/"

// protoTime is google.protobuf.Timestamp's JSON: RFC 3339 in UTC with 0,
// 3, 6 or 9 fraction digits (protobuf-ts refuses others).
const protoTime = "2006-01-02T15:04:05.000Z07:00"

// signedURLTTL is how long a URL the protocol hands out is good for.
const signedURLTTL = time.Hour

// ResultsHandler serves the Twirp artifact service.
func (s *Service) ResultsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method, _ := strings.CutPrefix(r.URL.Path, ResultsPrefix)
		if r.Method != http.MethodPost {
			twirpError(w, http.StatusMethodNotAllowed, "bad_route", "the results service takes POST")
			return
		}
		call, ok := map[string]func(context.Context, *http.Request, runtimeClaims, artifactReq) (any, error){
			"CreateArtifact": s.rpcCreate, "FinalizeArtifact": s.rpcFinalize, "ListArtifacts": s.rpcList,
			"GetSignedArtifactURL": s.rpcSignedURL, "DeleteArtifact": s.rpcDelete,
		}[method]
		if !ok {
			twirpError(w, http.StatusNotFound, "bad_route", "no method "+method)
			return
		}
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			twirpError(w, http.StatusUnauthorized, "unauthenticated", "a runtime token is required")
			return
		}
		claims, err := s.checkRuntimeToken(r.Context(), strings.TrimSpace(tok))
		if err != nil {
			s.twirpFail(w, err)
			return
		}
		var req artifactReq
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
			twirpError(w, http.StatusBadRequest, "malformed", "the request is not JSON: "+err.Error())
			return
		}
		if err := req.sameRun(claims); err != nil {
			s.twirpFail(w, err)
			return
		}
		out, err := call(r.Context(), r, claims, req)
		if err != nil {
			s.twirpFail(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
}

// artifactReq holds the fields of every method's request, protobuf's
// JSON names; int64s come as strings or numbers.
type artifactReq struct {
	RunID     string    `json:"workflowRunBackendId"`
	JobID     string    `json:"workflowJobRunBackendId"`
	Name      string    `json:"name"`
	Version   int       `json:"version"`
	ExpiresAt string    `json:"expiresAt"`
	Size      jsonInt64 `json:"size"`
	// google.protobuf wrappers: their bare value in protobuf JSON
	Hash       wrapped `json:"hash"`
	NameFilter wrapped `json:"nameFilter"`
	IDFilter   wrapped `json:"idFilter"`
}

// wrapped is a google.protobuf.StringValue or Int64Value: protobuf JSON
// writes the bare value ("x", "12" or 12); {"value": …} is taken too.
type wrapped string

func (w *wrapped) UnmarshalJSON(b []byte) error {
	var obj struct{ Value json.RawMessage }
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &obj); err != nil {
			return err
		}
		b = obj.Value
	}
	var v any
	if len(b) > 0 {
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
	}
	switch v := v.(type) {
	case string:
		*w = wrapped(v)
	case float64:
		*w = wrapped(strconv.FormatFloat(v, 'f', -1, 64))
	case nil:
	default:
		return fmt.Errorf("not a wrapped value: %s", b)
	}
	return nil
}

// UnmarshalJSON takes protobuf JSON's field names in either form: the
// client sends the proto names (workflow_run_backend_id: protobuf-ts's
// useProtoFieldName), other clients the lowerCamelCase ones.
func (q *artifactReq) UnmarshalJSON(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	camel := make(map[string]json.RawMessage, len(fields))
	for k, v := range fields {
		camel[lowerCamel(k)] = v
	}
	b, err := json.Marshal(camel)
	if err != nil {
		return err
	}
	type plain artifactReq // without this method
	return json.Unmarshal(b, (*plain)(q))
}

// lowerCamel is a proto field name's JSON name: name_filter -> nameFilter.
func lowerCamel(k string) string {
	parts := strings.Split(k, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// sameRun refuses a request about another run than the token's: a job
// reads and writes its own run's artifacts only.
func (q artifactReq) sameRun(c runtimeClaims) error {
	if q.RunID != strconv.FormatInt(c.Run, 10) {
		return usererr.Deniedf("the runtime token is not for run %q", q.RunID)
	}
	if q.JobID != "" && q.JobID != strconv.FormatInt(c.Job, 10) {
		return usererr.Deniedf("the runtime token is not for job %q", q.JobID)
	}
	return nil
}

// jsonInt64 is protobuf JSON's int64: a string or a number.
type jsonInt64 int64

func (v *jsonInt64) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not an int64: %s", b)
	}
	*v = jsonInt64(n)
	return nil
}

func (s *Service) baseURL(r *http.Request) string {
	if s.cfg.BaseURL != "" {
		return s.cfg.BaseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (s *Service) rpcCreate(ctx context.Context, r *http.Request, c runtimeClaims, q artifactReq) (any, error) {
	var exp time.Time
	if q.ExpiresAt != "" {
		t, err := time.Parse(time.RFC3339Nano, q.ExpiresAt)
		if err != nil {
			return nil, usererr.BadFieldf("expiresAt", "expiresAt is not an RFC 3339 time")
		}
		exp = t
	}
	a, err := s.createArtifact(ctx, c, q.Name, exp)
	if err != nil {
		return nil, err
	}
	return map[string]any{"ok": true, "signedUploadUrl": s.signedURL(s.baseURL(r), "upload", a.ID, signedURLTTL)}, nil
}

func (s *Service) rpcFinalize(ctx context.Context, _ *http.Request, c runtimeClaims, q artifactReq) (any, error) {
	a, err := s.finalizeArtifact(ctx, c, q.Name, int64(q.Size), string(q.Hash))
	if err != nil {
		return nil, err
	}
	return map[string]any{"ok": true, "artifactId": strconv.FormatInt(a.ID, 10)}, nil
}

func (s *Service) rpcList(ctx context.Context, _ *http.Request, c runtimeClaims, q artifactReq) (any, error) {
	list, err := s.queryArtifacts(ctx, `SELECT `+artifactCols+` FROM actions_artifacts WHERE run_id = $1 AND status = $2 ORDER BY id`, c.Run, ArtifactReady)
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, a := range list {
		if q.NameFilter != "" && a.Name != string(q.NameFilter) {
			continue
		}
		if q.IDFilter != "" && strconv.FormatInt(a.ID, 10) != string(q.IDFilter) {
			continue
		}
		out = append(out, map[string]any{"workflowRunBackendId": strconv.FormatInt(a.RunID, 10), "workflowJobRunBackendId": strconv.FormatInt(a.JobID, 10),
			"databaseId": strconv.FormatInt(a.ID, 10), "name": a.Name, "size": strconv.FormatInt(a.Size, 10),
			"createdAt": time.UnixMilli(a.Created).UTC().Format(protoTime),
			// as download-artifact compares it with the zip's
			"digest": "sha256:" + a.SHA256})
	}
	return map[string]any{"artifacts": out}, nil
}

// readyNamed is the token's run's ready artifact called name.
func (s *Service) readyNamed(ctx context.Context, c runtimeClaims, name string) (Artifact, error) {
	a, err := s.artifactNamed(ctx, c.Run, name)
	if err != nil {
		return Artifact{}, err
	}
	if a.Status != ArtifactReady {
		return Artifact{}, usererr.Missingf("the run has no finished artifact %q", name)
	}
	return a, nil
}

func (s *Service) rpcSignedURL(ctx context.Context, r *http.Request, c runtimeClaims, q artifactReq) (any, error) {
	a, err := s.readyNamed(ctx, c, q.Name)
	if err != nil {
		return nil, err
	}
	return map[string]any{"name": a.Name, "signedUrl": s.signedURL(s.baseURL(r), "download", a.ID, signedURLTTL)}, nil
}

func (s *Service) rpcDelete(ctx context.Context, _ *http.Request, c runtimeClaims, q artifactReq) (any, error) {
	a, err := s.readyNamed(ctx, c, q.Name)
	if err != nil {
		return nil, err
	}
	if err := s.dropArtifact(ctx, a); err != nil {
		return nil, err
	}
	return map[string]any{"ok": true, "artifactId": strconv.FormatInt(a.ID, 10)}, nil
}

// twirpFail writes err as Twirp's error JSON with the status its kind
// maps to; what is not the client's fault is logged and said no more.
func (s *Service) twirpFail(w http.ResponseWriter, err error) {
	status, code, msg := s.reply(err, "artifact request")
	twirpError(w, status, code, msg)
}

// reply is the status, code and message err answers with; an error that
// is not the client's fault is logged, as what failed, and said no more.
func (s *Service) reply(err error, what string) (int, string, string) {
	ue, ok := usererr.As(err)
	if !ok {
		s.log.Error("actions: "+what, "err", err)
		return http.StatusInternalServerError, "internal", "internal error"
	}
	status, code := httpStatusOf(ue.Kind)
	return status, code, ue.Message
}

func httpStatusOf(k usererr.Kind) (int, string) {
	switch k {
	case usererr.NotFound:
		return http.StatusNotFound, "not_found"
	case usererr.Unauthenticated:
		return http.StatusUnauthorized, "unauthenticated"
	case usererr.Forbidden:
		return http.StatusForbidden, "permission_denied"
	case usererr.Conflict:
		return http.StatusConflict, "already_exists"
	case usererr.TooLarge:
		return http.StatusRequestEntityTooLarge, "resource_exhausted"
	}
	return http.StatusBadRequest, "invalid_argument"
}

func twirpError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "msg": msg})
}

// The signed URLs, under Prefix: what Azure's BlockBlobClient sends
// (PUT with comp=block, then comp=blocklist; or one PUT of a BlockBlob),
// answered 201 as Azure does, and a GET of the zip.

func (s *Service) serveBlob(w http.ResponseWriter, r *http.Request) {
	if err := s.blob(w, r); err != nil {
		status, _, msg := s.reply(err, "artifact blob")
		http.Error(w, msg, status)
	}
}

func (s *Service) blob(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return usererr.Missingf("no artifact %s", r.PathValue("id"))
	}
	verb, q := r.PathValue("verb"), r.URL.Query()
	want := map[string]string{http.MethodPut: "upload", http.MethodGet: "download", http.MethodHead: "download"}[r.Method]
	if verb != want {
		return usererr.Deniedf("this URL does not allow %s", r.Method)
	}
	if err := s.checkSignedURL(verb, id, q.Get("expires"), q.Get("sig")); err != nil {
		return err
	}
	if verb == "download" {
		return s.download(w, r, id)
	}
	body := http.MaxBytesReader(w, r.Body, s.cfg.ArtifactMaxSize+1)
	switch q.Get("comp") {
	case "block":
		err = s.putBlock(r.Context(), id, q.Get("blockid"), body)
	case "blocklist":
		var ids []string
		if ids, err = blockList(io.LimitReader(r.Body, 16<<20)); err == nil {
			err = s.commitBlocks(r.Context(), id, ids)
		}
	case "":
		if !strings.EqualFold(r.Header.Get("x-ms-blob-type"), "BlockBlob") {
			return usererr.BadFieldf("x-ms-blob-type", "a whole upload is a BlockBlob")
		}
		err = s.putWhole(r.Context(), id, body)
	default:
		return usererr.BadFieldf("comp", "comp is block or blocklist")
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		err = usererr.New(usererr.TooLarge, usererr.CodeTooLarge, fmt.Sprintf("an artifact is at most %d bytes", s.cfg.ArtifactMaxSize))
	}
	if err != nil {
		return err
	}
	w.Header().Set("x-ms-request-id", strconv.FormatInt(s.now().UnixNano(), 36))
	w.Header().Set("x-ms-version", "2023-11-03")
	w.Header().Set("ETag", fmt.Sprintf(`"0x%X"`, s.now().UnixNano()))
	w.Header().Set("Last-Modified", s.now().UTC().Format(http.TimeFormat))
	w.Header().Set("x-ms-request-server-encrypted", "false")
	w.WriteHeader(http.StatusCreated)
	return nil
}

// blockList is the block ids of a Put Block List body, in order.
func blockList(r io.Reader) ([]string, error) {
	var list struct {
		Blocks []struct {
			XMLName xml.Name
			ID      string `xml:",chardata"`
		} `xml:",any"`
	}
	if err := xml.NewDecoder(r).Decode(&list); err != nil {
		return nil, usererr.BadFieldf("blocklist", "the block list is not XML: %v", err)
	}
	ids := make([]string, 0, len(list.Blocks))
	for _, b := range list.Blocks {
		ids = append(ids, strings.TrimSpace(b.ID))
	}
	if len(ids) > 50000 {
		return nil, usererr.BadFieldf("blocklist", "a block list holds at most 50000 blocks")
	}
	return ids, nil
}

func (s *Service) download(w http.ResponseWriter, r *http.Request, id int64) error {
	a, err := s.artifact(r.Context(), id)
	if err != nil {
		return err
	}
	if a.Status != ArtifactReady {
		return usererr.Missingf("the artifact %q is not available", a.Name)
	}
	f, err := os.Open(s.artifactFile(id))
	if err != nil {
		return fmt.Errorf("open artifact %d: %w", id, err)
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename=%q`, a.Name+".zip"))
	w.Header().Set("Cache-Control", "private, no-store")
	http.ServeContent(w, r, "", time.UnixMilli(a.Updated), f)
	return nil
}
