package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
)

// Gitea's /settings routes: what this node really allows, read from the
// limits the code enforces, so a client sizing its requests by them is
// never refused. And the signed-in user's /user/settings.

func (a *API) RegisterSettings(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/settings/ui", a.Serve(a.getUISettings))
	mux.HandleFunc("GET /api/v1/settings/repository", a.Serve(a.getRepoSettings))
	mux.HandleFunc("GET /api/v1/settings/api", a.Serve(a.getAPISettings))
	mux.HandleFunc("GET /api/v1/settings/attachment", a.Serve(a.getAttachmentSettings))
}

func (a *API) getUISettings(w http.ResponseWriter, r *http.Request) error {
	// The web UI follows the system's light or dark preference unless the
	// user picks a theme; there are no custom emojis.
	return Reply(w, map[string]any{"default_theme": "system", "allowed_reactions": chainforge.Reactions(), "custom_emojis": []string{}})
}

func (a *API) getRepoSettings(w http.ResponseWriter, r *http.Request) error {
	// Git over HTTP, stars and LFS are served; pull mirrors, migrations
	// and time tracking are not built.
	return Reply(w, map[string]bool{
		"mirrors_disabled": true, "http_git_disabled": false, "migrations_disabled": true,
		"stars_disabled": false, "time_tracking_disabled": true, "lfs_disabled": false,
	})
}

func (a *API) getAPISettings(w http.ResponseWriter, r *http.Request) error {
	return Reply(w, map[string]int64{
		"max_response_items": MaxLimit, "default_paging_num": DefaultLimit,
		"default_git_trees_per_page": TreePageSize, "default_max_blob_size": MaxContentSize,
	})
}

func (a *API) getAttachmentSettings(w http.ResponseWriter, r *http.Request) error {
	// Attachments are release assets: any type, up to the upload limit,
	// as many per release as the chain takes.
	return Reply(w, map[string]any{
		"enabled": true, "allowed_types": "*/*", "max_size": int64(gitrepos.MaxAssetUpload), "max_files": chainforge.MaxAssets,
	})
}

// userSettingsJSON is Gitea's UserSettings, which GET and PATCH
// /user/settings answer with. It carries the user's own fields too (login,
// email): the settings page shows what it saved from the PATCH answer.
type userSettingsJSON struct {
	UserJSON
	Language      string `json:"language"`
	Theme         string `json:"theme"`
	DiffViewStyle string `json:"diff_view_style"`
	HideEmail     bool   `json:"hide_email"`
	HideActivity  bool   `json:"hide_activity"`
}

// toUserSettingsJSON is u's settings, u seen by themself. Language and
// theme live in the browser, not on the node; the e-mail address is shown
// to nobody else and activity is public (it is on chain).
func (a *API) toUserSettingsJSON(r *http.Request, u auth.User) userSettingsJSON {
	return userSettingsJSON{UserJSON: a.withAccount(r, ToUserJSON(u, true), u), DiffViewStyle: "unified", HideEmail: true}
}

func (a *API) getUserSettings(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	return Reply(w, a.toUserSettingsJSON(r, id.User))
}
