package forge

import (
	"slices"
	"strings"
)

// Repository topics, as Gitea has them: a repository's admins tag it with
// up to MaxTopics short lower-case words, public like the rest of the
// repository record, which carries them (Repo.Topics), so every change to
// a repository projects them whole.

const (
	MaxTopics   = 25 // Gitea's limit per repository
	MaxTopicLen = 35 // Gitea's limit per topic
)

// RepoTopics is the payload of repo.topics: Topics, when given, replaces
// the list; then Add and Remove apply, so adding or removing one topic
// never races with another's edit. The result is sorted and unique.
type RepoTopics struct {
	Repo   uint64    `json:"repo"`
	Topics *[]string `json:"topics,omitempty"`
	Add    []string  `json:"add,omitempty"`
	Remove []string  `json:"remove,omitempty"`
}

func (RepoTopics) ActionName() string { return "repo.topics" }

// ValidTopic reports whether t is a topic by Gitea's rule: it starts with
// a lower-case letter or digit, then letters, digits, dashes and dots, at
// most MaxTopicLen bytes.
func ValidTopic(t string) bool {
	if t == "" || len(t) > MaxTopicLen {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '-' && c != '.') {
			return false
		}
	}
	return true
}

func repoTopics(s *session, payload []byte) error {
	var p RepoTopics
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermMaintain, "changing topics")
	if err != nil {
		return err
	}
	if len(p.Add) > MaxTopics || len(p.Remove) > MaxTopics {
		return invalid("topics", "a change may add or remove at most %d topics", MaxTopics)
	}
	topics := r.Topics
	if p.Topics != nil {
		topics = *p.Topics
	}
	topics = append(slices.Clone(topics), p.Add...)
	for i, t := range topics {
		if !ValidTopic(t) {
			return invalid("topics", "%q is not a topic: use at most %d lower-case letters, digits, dashes and dots, starting with a letter or digit", topics[i], MaxTopicLen)
		}
	}
	topics = slices.DeleteFunc(topics, func(t string) bool { return slices.Contains(p.Remove, t) })
	slices.Sort(topics)
	topics = slices.Compact(topics)
	if len(topics) > MaxTopics {
		return invalid("topics", "a repository may have at most %d topics", MaxTopics)
	}
	if len(topics) == 0 {
		topics = nil
	}
	r.Topics = topics
	return s.saveRepo(r)
}

// NormalizeTopic is how Gitea reads a topic a person typed.
func NormalizeTopic(t string) string { return strings.ToLower(strings.TrimSpace(t)) }
