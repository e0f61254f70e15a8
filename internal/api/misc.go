package api

import (
	"embed"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"

	"github.com/dforge/dforge/internal/usererr"
)

// Gitea's miscellaneous routes: rendering raw Markdown and markup, the
// node's NodeInfo, and the templates a client offers when it creates a
// repository (.gitignore files, licenses, label sets). The templates are a
// small real set embedded in the binary (templates/), not Gitea's hundreds.

//go:embed templates
var templateFiles embed.FS

func (a *API) RegisterMisc(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/v1/markdown/raw", a.Serve(a.postMarkdownRaw))
	mux.HandleFunc("POST /api/v1/markup", a.Serve(a.postMarkup))
	mux.HandleFunc("GET /api/v1/nodeinfo", a.Serve(a.getNodeInfo))
	mux.HandleFunc("GET /api/v1/gitignore/templates", a.Serve(a.listGitignores))
	mux.HandleFunc("GET /api/v1/gitignore/templates/{name}", a.Serve(a.getGitignore))
	mux.HandleFunc("GET /api/v1/licenses", a.Serve(a.listLicenses))
	mux.HandleFunc("GET /api/v1/licenses/{name}", a.Serve(a.getLicense))
	mux.HandleFunc("GET /api/v1/label/templates", a.Serve(a.listLabelTemplates))
	mux.HandleFunc("GET /api/v1/label/templates/{name}", a.Serve(a.getLabelTemplate))
	mux.HandleFunc("GET /api/v1/signing-key.gpg", a.Serve(a.getSigningKeyGPG))
	// The same for a repository: the node signs no repository's commits,
	// so every repository (and none) answers alike, revealing nothing.
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/signing-key.gpg", a.Serve(a.getSigningKeyGPG))
}

// postMarkdownRaw renders the request body, Markdown as plain text, as
// Gitea's POST /markdown/raw does.
func (a *API) postMarkdownRaw(w http.ResponseWriter, r *http.Request) error {
	text, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMarkdownText+1))
	if err != nil || len(text) > maxMarkdownText {
		return usererr.Unprocessablef("text", usererr.CodeTooLarge, "the text is too large to render: the most is %d bytes", maxMarkdownText)
	}
	return a.writeRendered(w, text)
}

// postMarkup is Gitea's POST /markup (MarkupOption): Markdown is the one
// markup the node renders, whatever FilePath names.
func (a *API) postMarkup(w http.ResponseWriter, r *http.Request) error {
	var opt struct {
		Text, Mode, Context, FilePath string
		Wiki                          bool
	}
	err := Decode(w, r, maxMarkdownBody, &opt)
	if ue, ok := usererr.As(err); (ok && ue.Kind == usererr.TooLarge) || len(opt.Text) > maxMarkdownText {
		err = usererr.Unprocessablef("Text", usererr.CodeTooLarge, "the text is too large to render: the most is %d bytes", maxMarkdownText)
	}
	if err != nil {
		return err
	}
	switch opt.Mode {
	case "", "gfm", "markdown", "comment", "file", "wiki":
	default:
		return usererr.BadFieldf("Mode", "Mode must be gfm, markdown, comment, file or wiki")
	}
	return a.writeRendered(w, []byte(opt.Text))
}

func (a *API) writeRendered(w http.ResponseWriter, text []byte) error {
	html, err := a.Markdown.Render(text)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(html))
	return nil
}

// getNodeInfo is NodeInfo 2.1 as Gitea serves it at /api/v1/nodeinfo. The
// node speaks no federation protocol, so it lists none, and it does not
// count its users or posts here (usage is zero).
func (a *API) getNodeInfo(w http.ResponseWriter, r *http.Request) error {
	return Reply(w, map[string]any{
		"version": "2.1",
		"software": map[string]string{
			"name": "dforge", "version": giteaVersion(a.Version),
			"repository": "https://github.com/dforge/dforge", "homepage": SiteURL(r),
		},
		"protocols":         []string{},
		"services":          map[string][]string{"inbound": {}, "outbound": {"rss2.0"}},
		"openRegistrations": true,
		"usage": map[string]any{
			"users":      map[string]int{"total": 0, "activeHalfyear": 0, "activeMonth": 0},
			"localPosts": 0, "localComments": 0,
		},
		"metadata": map[string]any{},
	})
}

// templateNames lists the files of one templates/ folder, sorted.
func templateNames(dir string) []string {
	entries, _ := fs.ReadDir(templateFiles, path.Join("templates", dir))
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(names)
	return names
}

// template reads templates/dir/name; a name that is not there (or that
// tries to leave the folder) is a 404.
func template(dir, name, kind string) ([]byte, error) {
	if name == "" || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") {
		return nil, usererr.Missingf("no %s template named %q", kind, name)
	}
	b, err := fs.ReadFile(templateFiles, path.Join("templates", dir, name))
	if err != nil {
		return nil, usererr.Missingf("no %s template named %q", kind, name)
	}
	return b, nil
}

func (a *API) listGitignores(w http.ResponseWriter, r *http.Request) error {
	return Reply(w, templateNames("gitignore"))
}

func (a *API) getGitignore(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("name")
	b, err := template("gitignore", name, "gitignore")
	if err != nil {
		return err
	}
	return Reply(w, map[string]string{"name": name, "source": string(b)})
}

// licenseNames are the licenses' full names by SPDX key.
var licenseNames = map[string]string{
	"Apache-2.0": "Apache License 2.0",
	"GPL-3.0":    "GNU General Public License v3.0",
	"MIT":        "MIT License",
	"MPL-2.0":    "Mozilla Public License 2.0",
}

func licenseURL(r *http.Request, key string) string {
	return SiteURL(r) + "/api/v1/licenses/" + key
}

func (a *API) listLicenses(w http.ResponseWriter, r *http.Request) error {
	list := []map[string]string{}
	for _, key := range templateNames("license") {
		list = append(list, map[string]string{"key": key, "name": licenseNames[key], "url": licenseURL(r, key)})
	}
	return Reply(w, list)
}

func (a *API) getLicense(w http.ResponseWriter, r *http.Request) error {
	key := r.PathValue("name")
	b, err := template("license", key, "license")
	if err != nil {
		return err
	}
	return Reply(w, map[string]string{"key": key, "name": licenseNames[key], "url": licenseURL(r, key), "body": string(b), "implementation": ""})
}

func (a *API) listLabelTemplates(w http.ResponseWriter, r *http.Request) error {
	return Reply(w, templateNames("label"))
}

// getLabelTemplate is Gitea's []LabelTemplate: name, exclusive, color
// (six hex digits, no "#") and description.
func (a *API) getLabelTemplate(w http.ResponseWriter, r *http.Request) error {
	b, err := template("label", r.PathValue("name")+".json", "label")
	if err != nil {
		return err
	}
	var labels []struct {
		Name        string `json:"name"`
		Exclusive   bool   `json:"exclusive"`
		Color       string `json:"color"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal(b, &labels); err != nil {
		return err
	}
	return Reply(w, labels)
}

// getSigningKeyGPG: the node signs no commits (merges and web edits are
// unsigned), so it has no key to give; Gitea answers so with 404.
func (a *API) getSigningKeyGPG(w http.ResponseWriter, r *http.Request) error {
	return usererr.Missingf("this node has no GPG signing key: it does not sign commits")
}
