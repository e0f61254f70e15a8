package convert

import (
	"time"

	"github.com/dforge/dforge/internal/gitea/structs"
	"github.com/dforge/dforge/internal/gitstore"
)

// PayloadCommit is Gitea's PayloadCommit of c in the repository whose page
// is repoHTML, stamped with its author's time as Gitea's. files lists the
// paths it added, removed and modified ([] for none), which a push event
// shows and a branch does not (null there, as Gitea's); c must then have
// been read with its files.
func PayloadCommit(repoHTML string, c gitstore.Commit, files bool) structs.PayloadCommit {
	j := structs.PayloadCommit{ID: c.ID, Message: c.Message, URL: repoHTML + "/commit/" + c.ID,
		Author:    structs.PayloadUser{Name: c.Author.Name, Email: c.Author.Email},
		Committer: structs.PayloadUser{Name: c.Committer.Name, Email: c.Committer.Email}}
	if !c.Author.When.IsZero() {
		j.Timestamp = c.Author.When.Format(time.RFC3339)
	}
	if !files {
		return j
	}
	j.Added, j.Removed, j.Modified = []string{}, []string{}, []string{}
	for _, f := range c.Files {
		switch f.Status {
		case "added":
			j.Added = append(j.Added, f.Path)
		case "removed", "deleted":
			j.Removed = append(j.Removed, f.Path)
		default:
			j.Modified = append(j.Modified, f.Path)
		}
	}
	return j
}
