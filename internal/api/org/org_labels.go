package org

import (
	"net/http"
	"strconv"

	"github.com/dforge/dforge/internal/api"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/orglabels"
	"github.com/dforge/dforge/internal/usererr"
)

// Organizations' labels, Gitea's /orgs/{org}/labels, over orglabels
// (node-local; that package says why).

func (a *Handler) RegisterOrgLabels(mux *http.ServeMux) {
	if a.OrgLabels == nil || a.Forge == nil {
		return
	}
	const labels = "/api/v1/orgs/{org}/labels"
	mux.HandleFunc("GET "+labels, a.Serve(a.listOrgLabels))
	mux.HandleFunc("POST "+labels, a.SignedIn(auth.ScopeWrite, a.createOrgLabel))
	mux.HandleFunc("GET "+labels+"/{id}", a.Serve(a.getOrgLabel))
	mux.HandleFunc("PATCH "+labels+"/{id}", a.SignedIn(auth.ScopeWrite, a.editOrgLabel))
	mux.HandleFunc("DELETE "+labels+"/{id}", a.SignedIn(auth.ScopeWrite, a.deleteOrgLabel))
}

func toOrgLabelJSON(r *http.Request, o index.Org, l orglabels.Label) api.LabelJSON {
	return api.LabelJSON{ID: uint64(l.ID), Name: l.Name, Exclusive: l.Exclusive, Color: l.Color, Description: l.Description,
		URL: api.SiteURL(r) + "/api/v1/orgs/" + o.Name + "/labels/" + strconv.FormatInt(l.ID, 10)}
}

// orgOwnerOf is the path's organization and whether the signed-in caller
// is one of its owners.
func (a *Handler) orgOwnerOf(r *http.Request) (index.Org, bool, error) {
	id, err := api.RequireUser(r)
	if err != nil {
		return index.Org{}, false, err
	}
	o, err := a.orgOf(r)
	if err != nil {
		return index.Org{}, false, err
	}
	owner, err := a.Forge.Index().IsTeamMember(r.Context(), o.OwnersTeam, id.User.Address)
	return o, owner, err
}

func orgLabelID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, usererr.Missingf("the organization has no label %s", r.PathValue("id"))
	}
	return id, nil
}

func (a *Handler) listOrgLabels(w http.ResponseWriter, r *http.Request) error {
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.OrgLabels.List(r.Context(), o.ID, p.Limit, (p.Number-1)*p.Limit)
	out := make([]api.LabelJSON, 0, len(list))
	for _, l := range list {
		out = append(out, toOrgLabelJSON(r, o, l))
	}
	return a.RespondList(w, r, p, total, out, err)
}

// orgLabelBody is Gitea's CreateLabelOption and EditLabelOption.
type orgLabelBody struct {
	Name        *string `json:"name"`
	Color       *string `json:"color"`
	Description *string `json:"description"`
	Exclusive   *bool   `json:"exclusive"`
	IsArchived  *bool   `json:"is_archived"`
}

func (a *Handler) createOrgLabel(w http.ResponseWriter, r *http.Request) error {
	o, owner, err := a.orgOwnerOf(r)
	if err != nil {
		return err
	}
	var in orgLabelBody
	if err := api.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	l, err := a.OrgLabels.Create(r.Context(), owner, o.ID, orglabels.Label{Name: api.Deref(in.Name), Color: api.Deref(in.Color),
		Description: api.Deref(in.Description), Exclusive: in.Exclusive != nil && *in.Exclusive})
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, toOrgLabelJSON(r, o, l))
	return nil
}

func (a *Handler) getOrgLabel(w http.ResponseWriter, r *http.Request) error {
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	id, err := orgLabelID(r)
	if err != nil {
		return err
	}
	l, err := a.OrgLabels.Get(r.Context(), o.ID, id)
	if err != nil {
		return err
	}
	return api.Reply(w, toOrgLabelJSON(r, o, l))
}

func (a *Handler) editOrgLabel(w http.ResponseWriter, r *http.Request) error {
	o, owner, err := a.orgOwnerOf(r)
	if err != nil {
		return err
	}
	id, err := orgLabelID(r)
	if err != nil {
		return err
	}
	var in orgLabelBody
	if err := api.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	l, err := a.OrgLabels.Update(r.Context(), owner, o.ID, id, orglabels.Edit{Name: in.Name, Color: in.Color, Description: in.Description, Exclusive: in.Exclusive})
	if err != nil {
		return err
	}
	return api.Reply(w, toOrgLabelJSON(r, o, l))
}

func (a *Handler) deleteOrgLabel(w http.ResponseWriter, r *http.Request) error {
	o, owner, err := a.orgOwnerOf(r)
	if err != nil {
		return err
	}
	id, err := orgLabelID(r)
	if err != nil {
		return err
	}
	if err := a.OrgLabels.Delete(r.Context(), owner, o.ID, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
