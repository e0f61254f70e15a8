package forum

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	chainforum "github.com/dforge/dforge/internal/chain/forum"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Reads of the forum. Lists walk an index in their order and stop at the
// page's end (ListPage); their totals and the category counts are kept
// in the read cache until the projection changes.

// Reader reads the forum's projection.
type Reader struct {
	db *readdb.DB
}

// NewReader returns a Reader on db, the index's.
func NewReader(db *readdb.DB) *Reader { return &Reader{db: db} }

// TopicSummary is a topic as lists show it.
type TopicSummary struct {
	ID        uint64
	Category  string
	Title     string
	Author    readdb.User
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

// Topic is a topic with its opening text.
type Topic struct {
	TopicSummary
	Body string
}

// Post is a reply in a topic.
type Post struct {
	ID        uint64
	Topic     uint64
	Author    readdb.User
	Body      string
	Quote     uint64
	Revisions uint64
	CreatedNS int64
	UpdatedNS int64
}

// Revision is the text one edit replaced.
type Revision struct {
	N      uint64
	Title  string // "" for a post's
	Body   string
	Editor readdb.User
	Height int64
	TimeNS int64
}

// Category is a category and how many topics it holds.
type Category struct {
	Name   string
	Topics int64
}

// Filter picks topics: of one category ("" for all), whose title
// holds Query (case-insensitive; "" for any).
type Filter struct {
	Category string
	Query    string
}

// MaxQuery bounds a title search, in bytes.
const MaxQuery = 100

const forumTopicColumns = `t.id, t.category, t.title, t.author, ` + `COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')` + `, t.pinned, t.locked,
	t.answer_post_id, t.reply_count, t.revisions, t.created_time_ns, t.updated_time_ns, t.last_post_time_ns`

const forumTopicFrom = `forum_topics t LEFT JOIN chain_accounts a ON a.address = t.author`

// forumTopicOrder is the lists' order: pinned first, then latest activity.
// The indexes forum_topics_category and forum_topics_activity hold it. The
// id makes it total, so a deep page seeks (readdb.SeekPage).
var forumTopicOrder = readdb.Order{Cols: []string{"t.pinned", "t.last_post_height", "t.id"}, Desc: true}

func scanForumTopic(row readdb.Scanner, extra ...any) (TopicSummary, error) {
	var t TopicSummary
	var id, answer, replies, revisions int64
	var addr, name string
	err := row.Scan(append([]any{&id, &t.Category, &t.Title, &addr, &name, &t.Pinned, &t.Locked,
		&answer, &replies, &revisions, &t.CreatedNS, &t.UpdatedNS, &t.LastPostNS}, extra...)...)
	t.ID, t.Answer, t.Replies, t.Revisions = uint64(id), uint64(answer), uint64(replies), uint64(revisions)
	t.Author = readdb.UserOf(addr, name)
	return t, err
}

// likePattern is a LIKE pattern matching s anywhere, its wildcards
// escaped (with '\').
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// Topics lists the topics f picks, pinned first, then by latest
// activity, and counts them all.
func (rd *Reader) Topics(ctx context.Context, f Filter, p readdb.Page) ([]TopicSummary, int64, error) {
	var args readdb.Args
	var conds []string
	if f.Category != "" {
		conds = append(conds, "t.category = "+args.Add(f.Category))
	}
	if q := strings.ToLower(strings.TrimSpace(f.Query)); q != "" {
		conds = append(conds, "t.lower_title LIKE "+args.Add(likePattern(q))+` ESCAPE '\'`)
	}
	where := strings.Join(conds, " AND ")
	type answer struct {
		topics []TopicSummary
		total  int64
	}
	// A title search reads every title; its page is kept until the
	// projection changes, like the totals.
	read := func(ctx context.Context) (answer, error) {
		out := []TopicSummary{}
		total, err := rd.db.SeekPageCounted(ctx, forumTopicColumns, forumTopicFrom, "forum_topics t", where, forumTopicOrder, args, p, rd.topicCount(f), func(rows *sql.Rows) error {
			t, err := scanForumTopic(rows)
			out = append(out, t)
			return err
		})
		return answer{out, total}, err
	}
	key := readdb.Key("forum-topics", where, append(args, p.Number, p.Limit)...)
	a, err := readdb.RememberSized(ctx, rd.db, key, read, func(a answer) int64 { return int64(len(a.topics)) * 512 })
	if err != nil {
		return nil, 0, fmt.Errorf("list forum topics: %w", err)
	}
	return a.topics, a.total, nil
}

// topicCount reads the total of the topics f picks from
// forum_topic_counts, which triggers keep with every write of forum_topics
// (migration 00086): a category's row, or the sum of the few categories'.
// It is nil for a title search, whose total is counted.
func (rd *Reader) topicCount(f Filter) readdb.Count {
	if strings.TrimSpace(f.Query) != "" {
		return nil
	}
	return func(ctx context.Context) (int64, error) {
		q, args := `SELECT COALESCE(SUM(topics), 0) FROM forum_topic_counts`, []any{}
		if f.Category != "" {
			q, args = q+` WHERE category = $1`, append(args, f.Category)
		}
		var n int64
		if err := rd.db.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			return 0, fmt.Errorf("count forum topics: %w", err)
		}
		return n, nil
	}
}

// Categories counts the topics of every category, in the order
// pages show them (chainforum.Categories), from their counters.
func (rd *Reader) Categories(ctx context.Context) ([]Category, error) {
	const q = `SELECT category, topics FROM forum_topic_counts`
	counts, err := readdb.Remember(ctx, rd.db, readdb.Key("forum-categories", q), func(ctx context.Context) (map[string]int64, error) {
		rows, err := rd.db.Query(ctx, q)
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
	out := make([]Category, len(chainforum.Categories))
	for i, c := range chainforum.Categories {
		out[i] = Category{Name: c, Topics: counts[c]}
	}
	return out, nil
}

// TopicCount is how many topics the forum holds (the community
// page's figure).
func (rd *Reader) TopicCount(ctx context.Context) (int64, error) {
	cats, err := rd.Categories(ctx)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, c := range cats {
		n += c.Topics
	}
	return n, nil
}

// LatestTopics are the limit newest topics, newest first (the
// community page's list).
func (rd *Reader) LatestTopics(ctx context.Context, limit int) ([]TopicSummary, error) {
	rows, err := rd.db.Query(ctx, `SELECT `+forumTopicColumns+` FROM `+forumTopicFrom+` ORDER BY t.id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("list latest forum topics: %w", err)
	}
	defer rows.Close()
	out := []TopicSummary{}
	for rows.Next() {
		t, err := scanForumTopic(rows)
		if err != nil {
			return nil, fmt.Errorf("list latest forum topics: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// TopicByID reads one topic with its body.
func (rd *Reader) TopicByID(ctx context.Context, id uint64) (Topic, error) {
	var t Topic
	sid, err := readdb.Int(id)
	if err != nil {
		return t, readdb.NotFound("there is no forum topic %d", id)
	}
	t.TopicSummary, err = scanForumTopic(rd.db.QueryRow(ctx, `SELECT `+forumTopicColumns+`, t.body FROM `+forumTopicFrom+` WHERE t.id = $1`, sid), &t.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return t, readdb.NotFound("there is no forum topic %d", id)
	}
	if err != nil {
		return t, fmt.Errorf("read forum topic %d: %w", id, err)
	}
	return t, nil
}

const forumPostColumns = `p.id, p.topic_id, p.author, COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), ''), p.body, p.quote_id, p.revisions,
	p.created_time_ns, p.updated_time_ns`

const forumPostFrom = `forum_posts p LEFT JOIN chain_accounts a ON a.address = p.author`

func scanForumPost(row readdb.Scanner) (Post, error) {
	var p Post
	var id, topic, quote, revisions int64
	var addr, name string
	err := row.Scan(&id, &topic, &addr, &name, &p.Body, &quote, &revisions, &p.CreatedNS, &p.UpdatedNS)
	p.ID, p.Topic, p.Quote, p.Revisions = uint64(id), uint64(topic), uint64(quote), uint64(revisions)
	p.Author = readdb.UserOf(addr, name)
	return p, err
}

// Posts lists a topic's replies, oldest first, and counts them; a deep
// page seeks by id (readdb.SeekPage), and its total is the topic's
// reply_count, which the chain keeps with every reply (replies are never
// deleted).
func (rd *Reader) Posts(ctx context.Context, topic uint64, p readdb.Page) ([]Post, int64, error) {
	sid, err := readdb.Int(topic)
	if err != nil {
		return nil, 0, readdb.NotFound("there is no forum topic %d", topic)
	}
	out := []Post{}
	replies := func(ctx context.Context) (int64, error) {
		var n int64
		err := rd.db.QueryRow(ctx, `SELECT reply_count FROM forum_topics WHERE id = $1`, sid).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		}
		if err != nil {
			return 0, fmt.Errorf("count the replies: %w", err)
		}
		return n, nil
	}
	total, err := rd.db.SeekPageCounted(ctx, forumPostColumns, forumPostFrom, "forum_posts p", "p.topic_id = $1", readdb.Order{Cols: []string{"p.id"}}, []any{sid}, p, replies, func(rows *sql.Rows) error {
		post, err := scanForumPost(rows)
		out = append(out, post)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list posts of forum topic %d: %w", topic, err)
	}
	return out, total, nil
}

// PostByID reads one reply.
func (rd *Reader) PostByID(ctx context.Context, id uint64) (Post, error) {
	sid, err := readdb.Int(id)
	if err != nil {
		return Post{}, readdb.NotFound("there is no forum post %d", id)
	}
	p, err := scanForumPost(rd.db.QueryRow(ctx, `SELECT `+forumPostColumns+` FROM `+forumPostFrom+` WHERE p.id = $1`, sid))
	if errors.Is(err, sql.ErrNoRows) {
		return p, readdb.NotFound("there is no forum post %d", id)
	}
	if err != nil {
		return p, fmt.Errorf("read forum post %d: %w", id, err)
	}
	return p, nil
}

// Revisions lists the texts the edits of a topic or post (kind
// forge.ForumRevisionTopic or ForumRevisionPost) replaced, newest first.
func (rd *Reader) Revisions(ctx context.Context, kind string, id uint64, p readdb.Page) ([]Revision, int64, error) {
	sid, err := readdb.Int(id)
	if err != nil {
		return nil, 0, readdb.NotFound("there is no forum %s %d", kind, id)
	}
	out := []Revision{}
	total, err := rd.db.ListPage(ctx, `r.n, r.title, r.body, r.editor, COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), ''), r.height, r.time_ns`,
		`forum_revisions r LEFT JOIN chain_accounts a ON a.address = r.editor`, "forum_revisions r",
		"r.kind = $1 AND r.target_id = $2", "r.n DESC", []any{kind, sid}, p, func(rows *sql.Rows) error {
			var r Revision
			var n int64
			var addr, name string
			err := rows.Scan(&n, &r.Title, &r.Body, &addr, &name, &r.Height, &r.TimeNS)
			r.N, r.Editor = uint64(n), readdb.UserOf(addr, name)
			out = append(out, r)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list revisions of forum %s %d: %w", kind, id, err)
	}
	return out, total, nil
}
