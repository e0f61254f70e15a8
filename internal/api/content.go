package api

import "net/http"

// Content handlers: site pages, docs, blog and FAQ, rendered on the server.

func (a *API) getPage(w http.ResponseWriter, r *http.Request) error {
	v, err := a.pages.Page(r.PathValue("slug"))
	return a.Respond(w, r, v, err)
}

func (a *API) getDoc(w http.ResponseWriter, r *http.Request) error {
	v, err := a.pages.Doc(r.PathValue("slug"))
	return a.Respond(w, r, v, err)
}

func (a *API) listDocs(w http.ResponseWriter, r *http.Request) error {
	v, err := a.pages.Docs()
	return a.Respond(w, r, v, err)
}

func (a *API) listPosts(w http.ResponseWriter, r *http.Request) error {
	v, err := a.pages.Posts()
	return a.Respond(w, r, v, err)
}

func (a *API) getPost(w http.ResponseWriter, r *http.Request) error {
	v, err := a.pages.Post(r.PathValue("slug"))
	return a.Respond(w, r, v, err)
}

func (a *API) getFAQ(w http.ResponseWriter, r *http.Request) error {
	v, err := a.pages.FAQ()
	return a.Respond(w, r, v, err)
}

// Respond writes a service result: the value as JSON, or the error.
func (a *API) Respond(w http.ResponseWriter, r *http.Request, v any, err error) error {
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, v)
	return nil
}
