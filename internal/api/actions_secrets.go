package api

import (
	"net/http"
	"time"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/usererr"
)

// Actions' secrets and variables in Gitea's shapes, the same at the three
// levels: internal/api/repo, org and user each find the scope and its
// owners, and answer through these.

// SecretJSON is Gitea's Secret: its name, never its value.
type SecretJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	CreatedAt   string `json:"created_at"`
}

// ActionVariableJSON is Gitea's ActionVariable: owner_id is the user's or
// organization's at their level (0 at a repository's), repo_id the
// repository's (0 at an owner's).
type ActionVariableJSON struct {
	OwnerID     int64  `json:"owner_id"`
	RepoID      int64  `json:"repo_id"`
	Name        string `json:"name"`
	Data        string `json:"data"`
	Description string `json:"description"`
}

// secretOptionJSON is Gitea's CreateOrUpdateSecretOption.
type secretOptionJSON struct {
	Data        *string `json:"data"`
	Description string  `json:"description"`
}

// createVariableOptionJSON is Gitea's CreateVariableOption.
type createVariableOptionJSON struct {
	Value       *string `json:"value"`
	Description string  `json:"description"`
}

// updateVariableOptionJSON is Gitea's UpdateVariableOption: name renames,
// an absent description keeps the one there.
type updateVariableOptionJSON struct {
	Name        string  `json:"name"`
	Value       *string `json:"value"`
	Description *string `json:"description"`
}

// maxActionsBody bounds a secret's or variable's request: a 64 KiB value
// JSON-escaped, and its description.
const maxActionsBody = 512 << 10

func msRFC3339(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

// ListActionSecrets answers sc's secrets, names only.
func (a *API) ListActionSecrets(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Actions.Secrets(r.Context(), sc, p.Limit, (p.Number-1)*p.Limit)
	out := make([]SecretJSON, 0, len(list))
	for _, s := range list {
		out = append(out, SecretJSON{Name: s.Name, Description: s.Description, CreatedAt: msRFC3339(s.Created)})
	}
	return a.RespondList(w, r, p, total, out, err)
}

// PutActionSecret creates (201) or replaces (204) sc's secret.
func (a *API) PutActionSecret(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	var body secretOptionJSON
	if err := Decode(w, r, maxActionsBody, &body); err != nil {
		return err
	}
	if body.Data == nil || *body.Data == "" {
		return usererr.BadFieldf("data", "data is required")
	}
	created, err := a.Actions.SetSecret(r.Context(), sc, r.PathValue("secretname"), *body.Data, body.Description)
	if err != nil {
		return err
	}
	if created {
		w.WriteHeader(http.StatusCreated)
		return nil
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// DeleteActionSecret removes sc's secret (204).
func (a *API) DeleteActionSecret(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	if err := a.Actions.DeleteSecret(r.Context(), sc, r.PathValue("secretname")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) variableJSON(r *http.Request, v actions.Variable) ActionVariableJSON {
	out := ActionVariableJSON{RepoID: int64(v.Scope.Repo), Name: v.Name, Data: v.Data, Description: v.Description}
	if v.Scope.Repo == 0 {
		out.OwnerID = UserIDOf(r, v.Scope.Owner)
	}
	return out
}

// ListActionVariables answers sc's variables with their values.
func (a *API) ListActionVariables(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Actions.Variables(r.Context(), sc, p.Limit, (p.Number-1)*p.Limit)
	out := make([]ActionVariableJSON, 0, len(list))
	for _, v := range list {
		out = append(out, a.variableJSON(r, v))
	}
	return a.RespondList(w, r, p, total, out, err)
}

// GetActionVariable answers one of sc's variables.
func (a *API) GetActionVariable(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	v, err := a.Actions.VariableByName(r.Context(), sc, r.PathValue("variablename"))
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, a.variableJSON(r, v))
	return nil
}

// CreateActionVariable adds a variable to sc (201; 409 when it exists).
func (a *API) CreateActionVariable(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	var body createVariableOptionJSON
	if err := Decode(w, r, maxActionsBody, &body); err != nil {
		return err
	}
	if body.Value == nil || *body.Value == "" {
		return usererr.BadFieldf("value", "value is required")
	}
	if err := a.Actions.CreateVariable(r.Context(), sc, r.PathValue("variablename"), *body.Value, body.Description); err != nil {
		return err
	}
	w.WriteHeader(http.StatusCreated)
	return nil
}

// UpdateActionVariable changes, and may rename, one of sc's variables (204).
func (a *API) UpdateActionVariable(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	var body updateVariableOptionJSON
	if err := Decode(w, r, maxActionsBody, &body); err != nil {
		return err
	}
	if body.Value == nil || *body.Value == "" {
		return usererr.BadFieldf("value", "value is required")
	}
	u := actions.VariableUpdate{Name: body.Name, Data: *body.Value, Description: body.Description}
	if err := a.Actions.UpdateVariable(r.Context(), sc, r.PathValue("variablename"), u); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// DeleteActionVariable removes one of sc's variables (204).
func (a *API) DeleteActionVariable(w http.ResponseWriter, r *http.Request, sc actions.Scope) error {
	if err := a.Actions.DeleteVariable(r.Context(), sc, r.PathValue("variablename")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
