package api

import "net/http"

// Content handlers: site pages, docs, blog and FAQ, rendered on the server.

func (a *API) getPage(w http.ResponseWriter, r *http.Request) {
	v, err := a.pages.Page(r.PathValue("slug"))
	a.respond(w, r, v, err)
}

func (a *API) getDoc(w http.ResponseWriter, r *http.Request) {
	v, err := a.pages.Doc(r.PathValue("slug"))
	a.respond(w, r, v, err)
}

func (a *API) listDocs(w http.ResponseWriter, r *http.Request) {
	v, err := a.pages.Docs()
	a.respond(w, r, v, err)
}

func (a *API) listPosts(w http.ResponseWriter, r *http.Request) {
	v, err := a.pages.Posts()
	a.respond(w, r, v, err)
}

func (a *API) getPost(w http.ResponseWriter, r *http.Request) {
	v, err := a.pages.Post(r.PathValue("slug"))
	a.respond(w, r, v, err)
}

func (a *API) getFAQ(w http.ResponseWriter, r *http.Request) {
	v, err := a.pages.FAQ()
	a.respond(w, r, v, err)
}

// respond writes a service result: the value as JSON, or the error.
func (a *API) respond(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
