package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"slices"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/usererr"
)

// Repository topics, Gitea's paths and shapes: anyone who can read a
// repository lists its topics; its admins change them (repo.topics, on
// chain for a public repository). /topics/search counts public
// repositories only.

func (a *Handler) RegisterTopics(mux *http.ServeMux) {
	if a.Forge == nil || a.Hosting == nil {
		return
	}
	w := func(fn api.Endpoint) http.HandlerFunc { return a.SignedIn(auth.ScopeWrite, fn) }
	const repo = "/api/v1/repos/{owner}/{repo}"
	mux.HandleFunc("GET "+repo+"/topics", a.Serve(a.listTopics))
	mux.HandleFunc("PUT "+repo+"/topics", w(a.setTopics))
	mux.HandleFunc("PUT "+repo+"/topics/{topic}", w(a.addTopic))
	mux.HandleFunc("DELETE "+repo+"/topics/{topic}", w(a.deleteTopic))
	mux.HandleFunc("GET /api/v1/topics/search", a.Serve(a.searchTopics))
}

// topicNameJSON is Gitea's TopicName.
type topicNameJSON struct {
	Topics []string `json:"topics"`
}

// topicJSON is Gitea's TopicResponse, less the id and dates a topic has
// no record of here.
type topicJSON struct {
	Name      string `json:"topic_name"`
	RepoCount int64  `json:"repo_count"`
}

type topicListJSON struct {
	Topics []topicJSON `json:"topics"`
}

// invalidTopicsJSON is Gitea's 422 answer to a list with bad topics.
type invalidTopicsJSON struct {
	Message       string   `json:"message"`
	Code          string   `json:"code"`
	InvalidTopics []string `json:"invalidTopics"`
}

func (a *Handler) listTopics(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	return a.RespondList(w, r, p, int64(len(rec.Topics)), topicNameJSON{Topics: api.PageSlice(rec.Topics, p)}, nil)
}

// setTopics replaces the list (PUT /topics): every topic is checked, and
// a bad one refuses the whole list, naming each, as Gitea does.
func (a *Handler) setTopics(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in topicNameJSON
	if err := api.Decode(w, r, 16<<10, &in); err != nil {
		return err
	}
	topics, invalid := []string{}, []string{}
	for _, t := range in.Topics {
		t = chainforge.NormalizeTopic(t)
		switch {
		case !chainforge.ValidTopic(t):
			invalid = append(invalid, t)
		case !slices.Contains(topics, t):
			topics = append(topics, t)
		}
	}
	if len(invalid) > 0 {
		api.WriteJSON(w, http.StatusUnprocessableEntity, invalidTopicsJSON{Code: "invalid_topics", InvalidTopics: invalid,
			Message: "invalid topics: a topic is at most 35 lower-case letters, digits, dashes and dots, starting with a letter or digit"})
		return nil
	}
	if len(topics) > chainforge.MaxTopics {
		return usererr.BadFieldf("topics", "a repository may have at most %d topics; this list has %d", chainforge.MaxTopics, len(topics))
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, chainforge.RepoTopics{Repo: rec.ID, Topics: &topics}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) addTopic(w http.ResponseWriter, r *http.Request) error {
	return a.changeTopic(w, r, true)
}

func (a *Handler) deleteTopic(w http.ResponseWriter, r *http.Request) error {
	return a.changeTopic(w, r, false)
}

// changeTopic adds or removes the topic in the path. Removing one the
// repository does not have is Gitea's 404.
func (a *Handler) changeTopic(w http.ResponseWriter, r *http.Request, add bool) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	topic := chainforge.NormalizeTopic(r.PathValue("topic"))
	if !chainforge.ValidTopic(topic) {
		return usererr.BadFieldf("topic", "%q is not a topic: use at most %d lower-case letters, digits, dashes and dots, starting with a letter or digit", topic, chainforge.MaxTopicLen)
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	has := slices.Contains(rec.Topics, topic)
	change := chainforge.RepoTopics{Repo: rec.ID}
	switch {
	case add && !has && len(rec.Topics) >= chainforge.MaxTopics:
		return usererr.BadFieldf("topic", "%s already has %d topics, the most a repository may have", rec.Name, chainforge.MaxTopics)
	case add:
		change.Add = []string{topic}
	case !has:
		return usererr.Missingf("%s has no topic %q", rec.Name, topic)
	default:
		change.Remove = []string{topic}
	}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, change); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// searchTopics is Gitea's GET /topics/search?q=: the topics starting with
// q, the most used first.
func (a *Handler) searchTopics(w http.ResponseWriter, r *http.Request) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Forge.Index().SearchTopics(r.Context(), r.URL.Query().Get("q"), p)
	if err != nil {
		return err
	}
	out := topicListJSON{Topics: make([]topicJSON, 0, len(list))}
	for _, t := range list {
		out.Topics = append(out.Topics, topicJSON{Name: t.Name, RepoCount: t.RepoCount})
	}
	return a.RespondList(w, r, p, total, out, nil)
}
