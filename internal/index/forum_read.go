package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/chain/forge"
)

// Reads of the forum. Lists walk an index in their order and stop at the
// page's end (listPage); their totals and the category counts are kept
// in the read cache until the projection changes.

// ForumTopicSummary is a topic as lists show it.
type ForumTopicSummary struct {
	ID        uint64
	Category  string
	Title     string
	Author    User
	Pinned    bool
	Locked    bool
	Answer    uint64 // the accepted answer's post id; 0 for none
	Replies   uint64
	Revisions uint64
	CreatedNS int64
	UpdatedNS int64
	// LastPostNS is when its newest reply came (its creation for none).
	LastPostNS int64
}

// ForumTopic is a topic with its opening text.
type ForumTopic struct {
	ForumTopicSummary
	Body string
}

// ForumPost is a reply in a topic.
type ForumPost struct {
	ID        uint64
	Topic     uint64
	Author    User
	Body      string
	Quote     uint64
	Revisions uint64
	CreatedNS int64
	UpdatedNS int64
}

// ForumRevision is the text one edit replaced.
type ForumRevision struct {
	N      uint64
	Title  string // "" for a post's
	Body   string
	Editor User
	Height int64
	TimeNS int64
}

// ForumCategory is a category and how many topics it holds.
type ForumCategory struct {
	Name   string
	Topics int64
}

// ForumFilter picks topics: of one category ("" for all), whose title
// holds Query (case-insensitive; "" for any).
type ForumFilter struct {
	Category string
	Query    string
}

// MaxForumQuery bounds a title search, in bytes.
const MaxForumQuery = 100

const forumTopicColumns = `t.id, t.category, t.title, t.author, ` + `COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')` + `, t.pinned, t.locked,
	t.answer_post_id, t.reply_count, t.revisions, t.created_time_ns, t.updated_time_ns, t.last_post_time_ns`

const forumTopicFrom = `forum_topics t LEFT JOIN chain_accounts a ON a.address = t.author`

// forumTopicOrder is the lists' order: pinned first, then latest activity.
// The indexes forum_topics_category and forum_topics_activity hold it.
const forumTopicOrder = `t.pinned DESC, t.last_post_height DESC, t.id DESC`

func scanForumTopic(row scanner, extra ...any) (ForumTopicSummary, error) {
	var t ForumTopicSummary
	var id, answer, replies, revisions int64
	var addr, name string
	err := row.Scan(append([]any{&id, &t.Category, &t.Title, &addr, &name, &t.Pinned, &t.Locked,
		&answer, &replies, &revisions, &t.CreatedNS, &t.UpdatedNS, &t.LastPostNS}, extra...)...)
	t.ID, t.Answer, t.Replies, t.Revisions = uint64(id), uint64(answer), uint64(replies), uint64(revisions)
	t.Author = user(addr, name)
	return t, err
}

// likePattern is a LIKE pattern matching s anywhere, its wildcards
// escaped (with '\').
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// ForumTopics lists the topics f picks, pinned first, then by latest
// activity, and counts them all.
func (ix *Index) ForumTopics(ctx context.Context, f ForumFilter, p Page) ([]ForumTopicSummary, int64, error) {
	var args sqlArgs
	var conds []string
	if f.Category != "" {
		conds = append(conds, "t.category = "+args.Add(f.Category))
	}
	if q := strings.ToLower(strings.TrimSpace(f.Query)); q != "" {
		conds = append(conds, "t.lower_title LIKE "+args.Add(likePattern(q))+` ESCAPE '\'`)
	}
	where := strings.Join(conds, " AND ")
	type answer struct {
		topics []ForumTopicSummary
		total  int64
	}
	// A title search reads every title; its page is kept until the
	// projection changes, like the totals.
	read := func() (answer, error) {
		out := []ForumTopicSummary{}
		total, err := ix.listPage(ctx, forumTopicColumns, forumTopicFrom, "forum_topics t", where, forumTopicOrder, args, p, func(rows *sql.Rows) error {
			t, err := scanForumTopic(rows)
			out = append(out, t)
			return err
		})
		return answer{out, total}, err
	}
	key := readKey("forum-topics", where, append(args, p.Number, p.Limit)...)
	a, err := rememberSized(ix, key, read, func(a answer) int64 { return int64(len(a.topics)) * 512 })
	if err != nil {
		return nil, 0, fmt.Errorf("list forum topics: %w", err)
	}
	return a.topics, a.total, nil
}

// ForumCategories counts the topics of every category, in the order
// pages show them (forge.ForumCategories).
func (ix *Index) ForumCategories(ctx context.Context) ([]ForumCategory, error) {
	const q = `SELECT category, COUNT(*) FROM forum_topics GROUP BY category`
	counts, err := remember(ix, readKey("forum-categories", q), func() (map[string]int64, error) {
		rows, err := ix.query(ctx, q)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		m := map[string]int64{}
		for rows.Next() {
			var c string
			var n int64
			if err := rows.Scan(&c, &n); err != nil {
				return nil, err
			}
			m[c] = n
		}
		return m, rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("count forum topics: %w", err)
	}
	out := make([]ForumCategory, len(forge.ForumCategories))
	for i, c := range forge.ForumCategories {
		out[i] = ForumCategory{Name: c, Topics: counts[c]}
	}
	return out, nil
}

// ForumTopicCount is how many topics the forum holds (the community
// page's figure).
func (ix *Index) ForumTopicCount(ctx context.Context) (int64, error) {
	cats, err := ix.ForumCategories(ctx)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, c := range cats {
		n += c.Topics
	}
	return n, nil
}

// LatestForumTopics are the limit newest topics, newest first (the
// community page's list).
func (ix *Index) LatestForumTopics(ctx context.Context, limit int) ([]ForumTopicSummary, error) {
	rows, err := ix.query(ctx, `SELECT `+forumTopicColumns+` FROM `+forumTopicFrom+` ORDER BY t.id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("list latest forum topics: %w", err)
	}
	defer rows.Close()
	out := []ForumTopicSummary{}
	for rows.Next() {
		t, err := scanForumTopic(rows)
		if err != nil {
			return nil, fmt.Errorf("list latest forum topics: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// ForumTopicByID reads one topic with its body.
func (ix *Index) ForumTopicByID(ctx context.Context, id uint64) (ForumTopic, error) {
	var t ForumTopic
	sid, err := sqlInt(id)
	if err != nil {
		return t, notFound("there is no forum topic %d", id)
	}
	t.ForumTopicSummary, err = scanForumTopic(ix.queryRow(ctx, `SELECT `+forumTopicColumns+`, t.body FROM `+forumTopicFrom+` WHERE t.id = $1`, sid), &t.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return t, notFound("there is no forum topic %d", id)
	}
	if err != nil {
		return t, fmt.Errorf("read forum topic %d: %w", id, err)
	}
	return t, nil
}

const forumPostColumns = `p.id, p.topic_id, p.author, COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), ''), p.body, p.quote_id, p.revisions,
	p.created_time_ns, p.updated_time_ns`

const forumPostFrom = `forum_posts p LEFT JOIN chain_accounts a ON a.address = p.author`

func scanForumPost(row scanner) (ForumPost, error) {
	var p ForumPost
	var id, topic, quote, revisions int64
	var addr, name string
	err := row.Scan(&id, &topic, &addr, &name, &p.Body, &quote, &revisions, &p.CreatedNS, &p.UpdatedNS)
	p.ID, p.Topic, p.Quote, p.Revisions = uint64(id), uint64(topic), uint64(quote), uint64(revisions)
	p.Author = user(addr, name)
	return p, err
}

// ForumPosts lists a topic's replies, oldest first, and counts them.
func (ix *Index) ForumPosts(ctx context.Context, topic uint64, p Page) ([]ForumPost, int64, error) {
	sid, err := sqlInt(topic)
	if err != nil {
		return nil, 0, notFound("there is no forum topic %d", topic)
	}
	out := []ForumPost{}
	total, err := ix.listPage(ctx, forumPostColumns, forumPostFrom, "forum_posts p", "p.topic_id = $1", "p.id", []any{sid}, p, func(rows *sql.Rows) error {
		post, err := scanForumPost(rows)
		out = append(out, post)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list posts of forum topic %d: %w", topic, err)
	}
	return out, total, nil
}

// ForumPostByID reads one reply.
func (ix *Index) ForumPostByID(ctx context.Context, id uint64) (ForumPost, error) {
	sid, err := sqlInt(id)
	if err != nil {
		return ForumPost{}, notFound("there is no forum post %d", id)
	}
	p, err := scanForumPost(ix.queryRow(ctx, `SELECT `+forumPostColumns+` FROM `+forumPostFrom+` WHERE p.id = $1`, sid))
	if errors.Is(err, sql.ErrNoRows) {
		return p, notFound("there is no forum post %d", id)
	}
	if err != nil {
		return p, fmt.Errorf("read forum post %d: %w", id, err)
	}
	return p, nil
}

// ForumRevisions lists the texts the edits of a topic or post (kind
// forge.ForumRevisionTopic or ForumRevisionPost) replaced, newest first.
func (ix *Index) ForumRevisions(ctx context.Context, kind string, id uint64, p Page) ([]ForumRevision, int64, error) {
	sid, err := sqlInt(id)
	if err != nil {
		return nil, 0, notFound("there is no forum %s %d", kind, id)
	}
	out := []ForumRevision{}
	total, err := ix.listPage(ctx, `r.n, r.title, r.body, r.editor, COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), ''), r.height, r.time_ns`,
		`forum_revisions r LEFT JOIN chain_accounts a ON a.address = r.editor`, "forum_revisions r",
		"r.kind = $1 AND r.target_id = $2", "r.n DESC", []any{kind, sid}, p, func(rows *sql.Rows) error {
			var r ForumRevision
			var n int64
			var addr, name string
			err := rows.Scan(&n, &r.Title, &r.Body, &addr, &name, &r.Height, &r.TimeNS)
			r.N, r.Editor = uint64(n), user(addr, name)
			out = append(out, r)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list revisions of forum %s %d: %w", kind, id, err)
	}
	return out, total, nil
}
