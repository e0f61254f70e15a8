package repo

import (
	"errors"
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/gitea/structs"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Releases and their assets, in Gitea's shapes (Release, Attachment). The
// record is on chain; the assets are UnixFS files in the blockstore, so
// besides browser_download_url each asset names its cid, which any IPFS
// client fetches at /ipfs/{cid}. Drafts are this node's until published
// (gitrepos/release_drafts.go): their ids are from 2^50 up, their assets
// have no cid, and they are merged into the reads here for writers.

func (a *Handler) RegisterReleases(mux *http.ServeMux) {
	if a.Hosting == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/releases", a.Serve(a.listReleases))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/releases", user(auth.ScopeWrite, a.createRelease))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/releases/latest", a.Serve(a.getLatestRelease))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/releases/tags/{tag}", a.Serve(a.getReleaseByTag))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/releases/tags/{tag}", user(auth.ScopeWrite, a.deleteReleaseByTag))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/releases/{id}", a.Serve(a.getRelease))
	mux.HandleFunc("PATCH /api/v1/repos/{owner}/{repo}/releases/{id}", user(auth.ScopeWrite, a.editRelease))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/releases/{id}", user(auth.ScopeWrite, a.deleteRelease))
	// One pattern for /releases/tags/{tag} and /releases/{id}/assets,
	// which the mux could not tell apart.
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/releases/{id}/{sub}", a.Serve(a.getReleaseSub))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/releases/{id}/assets", user(auth.ScopeWrite, a.createReleaseAsset))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}", a.Serve(a.getReleaseAsset))
	mux.HandleFunc("PATCH /api/v1/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}", user(auth.ScopeWrite, a.editReleaseAsset))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}", user(auth.ScopeWrite, a.deleteReleaseAsset))
}

type releaseJSON = structs.Release

type attachmentJSON = structs.Attachment

// createReleaseBody is Gitea's CreateReleaseOption.
type createReleaseBody struct {
	TagName    string `json:"tag_name"`
	Target     string `json:"target_commitish"`
	Title      string `json:"name"`
	Note       string `json:"body"`
	Draft      bool   `json:"draft"`
	Prerelease bool   `json:"prerelease"`
}

// editReleaseBody is Gitea's EditReleaseOption: what it leaves out stays.
type editReleaseBody struct {
	TagName    *string `json:"tag_name"`
	Target     *string `json:"target_commitish"`
	Title      *string `json:"name"`
	Note       *string `json:"body"`
	Draft      *bool   `json:"draft"`
	Prerelease *bool   `json:"prerelease"`
}

func (a *Handler) releaseOut(r *http.Request, repo index.Repo, rel index.Release) releaseJSON {
	full := api.ToForgeUser(r, repo.Owner).Login + "/" + repo.Name
	return convert.Release(api.SiteURL(r), full, api.ToForgeUser(r, a.userOf(r, rel.Publisher)), rel)
}

// userOf names an address as the index knows it.
func (a *Handler) userOf(r *http.Request, addr string) index.User {
	u := index.User{Address: addr}
	if a.Index != nil && common.IsHexAddress(addr) {
		u.Username, _ = a.Index.Username(r.Context(), common.HexToAddress(addr))
	}
	return u
}

// releaseRepo is the request's repository, with the viewer's permission.
func (a *Handler) releaseRepo(r *http.Request) (index.Repo, forge.Perm, error) {
	return a.RepoOf(r)
}

func idParam(r *http.Request, name string) (uint64, error) {
	id, err := strconv.ParseUint(r.PathValue(name), 10, 64)
	if err != nil || id == 0 {
		return 0, usererr.Missingf("%s %q does not exist", name, r.PathValue(name))
	}
	return id, nil
}

// visibleRelease reads a release; a draft is shown to writers only.
func (a *Handler) visibleRelease(r *http.Request, repo index.Repo, perm forge.Perm, read func() (index.Release, error)) (index.Release, error) {
	rel, err := read()
	if errors.Is(err, index.ErrNoRelease) || err == nil && rel.Draft && perm < forge.PermWrite {
		return index.Release{}, usererr.Missingf("release does not exist")
	}
	return rel, err
}

func (a *Handler) releaseByID(r *http.Request) (index.Repo, forge.Perm, index.Release, error) {
	repo, perm, err := a.releaseRepo(r)
	if err != nil {
		return repo, perm, index.Release{}, err
	}
	id, err := idParam(r, "id")
	if err != nil {
		return repo, perm, index.Release{}, err
	}
	if gitrepos.IsReleaseDraftID(id) {
		rel, err := a.Hosting.ReleaseDraft(r.Context(), repo, perm, id)
		return repo, perm, rel, err
	}
	rel, err := a.visibleRelease(r, repo, perm, func() (index.Release, error) { return a.Index.ReleaseByID(r.Context(), repo.ID, id) })
	return repo, perm, rel, err
}

func (a *Handler) listReleases(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := a.releaseRepo(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	f := index.ReleaseFilter{Drafts: perm >= forge.PermWrite, Prereleases: true}
	q := r.URL.Query()
	if v := q.Get("draft"); v == "false" {
		f.Drafts = false
	}
	if v := q.Get("pre-release"); v == "false" {
		f.Prereleases = false
	}
	list, total, err := a.releasePage(r, repo, perm, f, p)
	if err != nil {
		return err
	}
	out := []releaseJSON{}
	for _, rel := range list {
		if q.Get("draft") == "true" && !rel.Draft || q.Get("pre-release") == "true" && !rel.Prerelease {
			continue
		}
		out = append(out, a.releaseOut(r, repo, rel))
	}
	return a.RespondList(w, r, p, total, out, nil)
}

// releasePage is one page of the node's drafts (for writers, when f asks
// for drafts) followed by the chain's releases, paged as one list: drafts
// first, as they are the newest work.
func (a *Handler) releasePage(r *http.Request, repo index.Repo, perm forge.Perm, f index.ReleaseFilter, p index.Page) ([]index.Release, int64, error) {
	var drafts []index.Release
	if f.Drafts {
		all, err := a.Hosting.ReleaseDrafts(r.Context(), repo, perm)
		if err != nil {
			return nil, 0, err
		}
		for _, d := range all {
			if f.Prereleases || !d.Prerelease {
				drafts = append(drafts, d)
			}
		}
	}
	from := (p.Number - 1) * p.Limit
	page := drafts[min(from, len(drafts)):min(from+p.Limit, len(drafts))]
	list, total, err := a.Index.ReleasesFrom(r.Context(), repo.ID, f, max(0, from-len(drafts)), p.Limit-len(page))
	if err != nil {
		return nil, 0, err
	}
	return append(page, list...), total + int64(len(drafts)), nil
}

func (a *Handler) getRelease(w http.ResponseWriter, r *http.Request) error {
	repo, _, rel, err := a.releaseByID(r)
	if err != nil {
		return err
	}
	return api.Reply(w, a.releaseOut(r, repo, rel))
}

func (a *Handler) getLatestRelease(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := a.releaseRepo(r)
	if err != nil {
		return err
	}
	rel, err := a.visibleRelease(r, repo, perm, func() (index.Release, error) { return a.Index.LatestRelease(r.Context(), repo.ID) })
	if err != nil {
		return err
	}
	return api.Reply(w, a.releaseOut(r, repo, rel))
}

// getReleaseSub is GET /releases/tags/{tag} (a release by its tag) and
// GET /releases/{id}/assets (a release's assets).
func (a *Handler) getReleaseSub(w http.ResponseWriter, r *http.Request) error {
	switch {
	case r.PathValue("id") == "tags":
		r.SetPathValue("tag", r.PathValue("sub"))
		return a.getReleaseByTag(w, r)
	case r.PathValue("sub") == "assets":
		return a.listReleaseAssets(w, r)
	}
	return usererr.Missingf("a release has no %q: ask for /releases/tags/{tag} or /releases/{id}/assets", r.PathValue("sub"))
}

func (a *Handler) releaseByTag(r *http.Request) (index.Repo, forge.Perm, index.Release, error) {
	repo, perm, err := a.releaseRepo(r)
	if err != nil {
		return repo, perm, index.Release{}, err
	}
	rel, err := a.releaseOfTag(r, repo, perm, r.PathValue("tag"))
	return repo, perm, rel, err
}

// releaseOfTag is repo's release of tag: the chain's, else a writer's
// draft. A draft may share its tag with a chain release made on another
// node meanwhile; the chain's is the one a tag names.
func (a *Handler) releaseOfTag(r *http.Request, repo index.Repo, perm forge.Perm, tag string) (index.Release, error) {
	rel, err := a.visibleRelease(r, repo, perm, func() (index.Release, error) { return a.Index.ReleaseByTag(r.Context(), repo.ID, tag) })
	if _, missing := usererr.As(err); err != nil && missing {
		return a.Hosting.ReleaseDraftByTag(r.Context(), repo, perm, tag)
	}
	return rel, err
}

func (a *Handler) getReleaseByTag(w http.ResponseWriter, r *http.Request) error {
	repo, _, rel, err := a.releaseByTag(r)
	if err != nil {
		return err
	}
	return api.Reply(w, a.releaseOut(r, repo, rel))
}

func (a *Handler) createRelease(w http.ResponseWriter, r *http.Request) error {
	u, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in createReleaseBody
	if err := api.Decode(w, r, api.MaxTextBody, &in); err != nil {
		return err
	}
	repo, perm, err := a.releaseRepo(r)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.TagName) == "" {
		return usererr.BadFieldf("tag_name", "tag_name is required")
	}
	if err := api.CheckChainLines(api.TextField{Name: "tag_name", Value: in.TagName}, api.TextField{Name: "target_commitish", Value: in.Target}, api.TextField{Name: "name", Value: in.Title}); err != nil {
		return err
	}
	if in.Title == "" {
		in.Title = in.TagName
	}
	rel, err := a.Hosting.CreateRelease(r.Context(), u.User.Address, repo, perm, gitrepos.ReleaseOptions{TagName: in.TagName,
		Target: in.Target, Title: in.Title, Note: in.Note, Draft: in.Draft, Prerelease: in.Prerelease})
	if err != nil {
		return a.HostingError(w, r, err)
	}
	api.WriteJSON(w, http.StatusCreated, a.releaseOut(r, repo, rel))
	return nil
}

func (a *Handler) editRelease(w http.ResponseWriter, r *http.Request) error {
	u, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in editReleaseBody
	if err := api.Decode(w, r, api.MaxTextBody, &in); err != nil {
		return err
	}
	if err := api.CheckChainLines(api.TextField{Name: "tag_name", Value: api.Deref(in.TagName)}, api.TextField{Name: "target_commitish", Value: api.Deref(in.Target)}, api.TextField{Name: "name", Value: api.Deref(in.Title)}); err != nil {
		return err
	}
	repo, perm, rel, err := a.releaseByID(r)
	if err != nil {
		return err
	}
	// A published draft's id goes on naming its release: the edit goes
	// through the draft, which finishes a publish left half done.
	if id, _ := idParam(r, "id"); gitrepos.IsReleaseDraftID(id) {
		rel.ID = id
	}
	e := chainforge.ReleaseEdit{ID: rel.ID, TagName: in.TagName, Target: in.Target, Title: in.Title, Note: in.Note, Draft: in.Draft, Prerelease: in.Prerelease}
	// Gitea keeps a field sent empty (its SDK sends every field of an
	// edit, so a client that changes only the draft flag sends "name": ""
	// and "body": ""); only the flags are always taken.
	for _, f := range []**string{&e.TagName, &e.Target, &e.Title, &e.Note} {
		if *f != nil && **f == "" {
			*f = nil
		}
	}
	rel, err = a.Hosting.EditRelease(r.Context(), u.User.Address, repo, perm, e)
	if err != nil {
		return a.HostingError(w, r, err)
	}
	return api.Reply(w, a.releaseOut(r, repo, rel))
}

func (a *Handler) deleteRelease(w http.ResponseWriter, r *http.Request) error {
	u, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, rel, err := a.releaseByID(r)
	if err != nil {
		return err
	}
	if err := a.Hosting.DeleteRelease(r.Context(), u.User.Address, repo, perm, rel.ID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) deleteReleaseByTag(w http.ResponseWriter, r *http.Request) error {
	u, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, rel, err := a.releaseByTag(r)
	if err != nil {
		return err
	}
	if err := a.Hosting.DeleteRelease(r.Context(), u.User.Address, repo, perm, rel.ID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) repoURL(r *http.Request, repo index.Repo) string {
	return api.SiteURL(r) + "/" + api.ToForgeUser(r, repo.Owner).Login + "/" + repo.Name
}

func (a *Handler) listReleaseAssets(w http.ResponseWriter, r *http.Request) error {
	repo, _, rel, err := a.releaseByID(r)
	if err != nil {
		return err
	}
	out := []attachmentJSON{}
	for _, as := range rel.Assets {
		out = append(out, convert.Attachment(a.repoURL(r, repo), rel, as))
	}
	return api.Reply(w, out)
}

func (a *Handler) assetOf(r *http.Request) (index.Repo, forge.Perm, index.Release, index.Asset, error) {
	repo, perm, rel, err := a.releaseByID(r)
	if err != nil {
		return repo, perm, rel, index.Asset{}, err
	}
	id, err := idParam(r, "attachment_id")
	if err != nil {
		return repo, perm, rel, index.Asset{}, err
	}
	for _, as := range rel.Assets {
		if as.ID == id {
			return repo, perm, rel, as, nil
		}
	}
	return repo, perm, rel, index.Asset{}, usererr.Missingf("release %d has no asset %d", rel.ID, id)
}

func (a *Handler) getReleaseAsset(w http.ResponseWriter, r *http.Request) error {
	repo, _, rel, as, err := a.assetOf(r)
	if err != nil {
		return err
	}
	return api.Reply(w, convert.Attachment(a.repoURL(r, repo), rel, as))
}

// createReleaseAsset takes the file as Gitea does: the multipart field
// "attachment" (its file name unless ?name= says otherwise), or the whole
// body as the file with ?name=. The file streams into the blockstore.
func (a *Handler) createReleaseAsset(w http.ResponseWriter, r *http.Request) error {
	u, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, rel, err := a.releaseByID(r)
	if err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, gitrepos.MaxAssetUpload+1<<20)
	body, name, err := assetBody(r)
	if err != nil {
		return err
	}
	if q := r.URL.Query().Get("name"); q != "" {
		name = q
	}
	if strings.TrimSpace(name) == "" {
		return usererr.BadFieldf("name", "the asset needs a name: ?name= or the attachment's file name")
	}
	as, err := a.Hosting.AddAsset(r.Context(), u.User.Address, repo, perm, rel.ID, name, body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return usererr.New(usererr.TooLarge, "too_large", fmt.Sprintf("the asset is over the %d bytes this node takes", gitrepos.MaxAssetUpload))
	}
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, convert.Attachment(a.repoURL(r, repo), rel, as))
	return nil
}

// assetBody finds the upload: the multipart part "attachment", read as a
// stream (never buffered whole), or the raw body.
func assetBody(r *http.Request) (io.Reader, string, error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return r.Body, "", nil
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, "", usererr.BadFieldf("attachment", "the multipart body cannot be read: %v", err)
	}
	for range 16 { // the form has one file; a few other fields at most
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", usererr.BadFieldf("attachment", "the multipart body cannot be read: %v", err)
		}
		if part.FormName() == "attachment" {
			return part, part.FileName(), nil
		}
	}
	return nil, "", usererr.BadFieldf("attachment", "the multipart form has no \"attachment\" file")
}

func (a *Handler) editReleaseAsset(w http.ResponseWriter, r *http.Request) error {
	u, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Name string `json:"name"`
	}
	if err := api.Decode(w, r, api.MaxTextBody, &in); err != nil {
		return err
	}
	repo, perm, rel, as, err := a.assetOf(r)
	if err != nil {
		return err
	}
	if in.Name == "" {
		return api.Reply(w, convert.Attachment(a.repoURL(r, repo), rel, as))
	}
	as, err = a.Hosting.EditAsset(r.Context(), u.User.Address, repo, perm, rel.ID, as.ID, in.Name)
	if err != nil {
		return err
	}
	return api.Reply(w, convert.Attachment(a.repoURL(r, repo), rel, as))
}

func (a *Handler) deleteReleaseAsset(w http.ResponseWriter, r *http.Request) error {
	u, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, rel, as, err := a.assetOf(r)
	if err != nil {
		return err
	}
	if err := a.Hosting.DeleteAsset(r.Context(), u.User.Address, repo, perm, rel.ID, as.ID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// ServeDownload serves a release asset at Gitea's browser_download_url,
// with range requests, from this node's blockstore.
func (a *Handler) ServeDownload(w http.ResponseWriter, r *http.Request) {
	a.Serve(a.downloadAsset)(w, r)
}

func (a *Handler) downloadAsset(w http.ResponseWriter, r *http.Request) error {
	if a.Hosting == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return usererr.Missingf("no such file")
	}
	parts := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
	var seg [6]string
	for i, p := range parts {
		s, err := url.PathUnescape(p)
		if err != nil {
			return usererr.Missingf("no such file")
		}
		seg[i] = s
	}
	repo, perm, err := a.Hosting.Repo(r.Context(), api.ViewerOf(r), seg[0], seg[1])
	if err != nil {
		return err
	}
	rel, err := a.releaseOfTag(r, repo, perm, seg[4])
	if err != nil {
		return err
	}
	for _, as := range rel.Assets {
		if as.Name != seg[5] {
			continue
		}
		// A download is counted once: not for HEAD, nor for a range that
		// resumes or continues one.
		rng := r.Header.Get("Range")
		count := r.Method == http.MethodGet && (rng == "" || strings.HasPrefix(rng, "bytes=0-"))
		f, err := a.Hosting.OpenAsset(r.Context(), as, count)
		if err != nil {
			return err
		}
		defer f.Close()
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": as.Name}))
		if as.CID == "" { // a private repository's asset: no IPFS root
			w.Header().Set("ETag", `"`+as.SHA256+`"`)
		} else {
			w.Header().Set("ETag", `"`+as.CID+`"`)
			w.Header().Set("X-Ipfs-Roots", as.CID)
		}
		http.ServeContent(w, r, as.Name, time.Unix(0, max(as.CreatedNS, rel.CreatedNS)), f)
		return nil
	}
	return usererr.Missingf("release %s has no asset %s", rel.TagName, seg[5])
}
