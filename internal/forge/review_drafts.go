package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Pending (draft) reviews are private to their author until submitted, so
// they stay in the node's SQL store, never on chain. Their ids live apart
// from the chain's review ids: DraftIDBase plus the draft's row id, still
// an integer a JavaScript number holds exactly.
const DraftIDBase uint64 = 1 << 50

// ReviewPending is a draft's state (Gitea's PENDING).
const ReviewPending = "pending"

// IsDraftID tells a draft's review id from a chain review's.
func IsDraftID(id uint64) bool { return id > DraftIDBase }

func draftKey(a common.Address) string { return strings.ToLower(a.Hex()) }

// AddReviewDraft keeps review p, by author, as a pending review and returns
// it as listed. The state p carries is ignored: it is chosen on submit. As
// in Gitea an author has one pending review per pull request: a second
// adds its comments to the first, and its body, if any, replaces the
// first's.
func (s *Service) AddReviewDraft(ctx context.Context, author index.User, p chainforge.PullReview) (index.Review, error) {
	if s.drafts == nil {
		return index.Review{}, usererr.BadFieldf("event", "this node keeps no pending reviews: submit the review as APPROVED, REQUEST_CHANGES or COMMENT")
	}
	p.State = ""
	key := draftKey(common.HexToAddress(author.Address))
	list, err := s.drafts.ReviewDraftsOf(ctx, key, p.Repo, p.Number)
	if err != nil {
		return index.Review{}, err
	}
	if len(list) > 0 {
		d := list[0]
		var prev chainforge.PullReview
		if err := json.Unmarshal([]byte(d.Payload), &prev); err != nil {
			return index.Review{}, fmt.Errorf("decode review draft %d: %w", d.ID, err)
		}
		if strings.TrimSpace(p.Body) == "" {
			p.Body = prev.Body
		}
		p.Comments = append(prev.Comments, p.Comments...)
		raw, err := json.Marshal(p)
		if err != nil {
			return index.Review{}, fmt.Errorf("encode review draft: %w", err)
		}
		if _, err := s.drafts.UpdateReviewDraft(ctx, key, d.ID, string(raw)); err != nil {
			return index.Review{}, err
		}
		return draftReview(author, d, p), nil
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return index.Review{}, fmt.Errorf("encode review draft: %w", err)
	}
	d := store.ReviewDraft{Author: key, Repo: p.Repo, Number: p.Number, Payload: string(raw), CreatedAt: s.now()}
	if d.ID, err = s.drafts.AddReviewDraft(ctx, d); err != nil {
		return index.Review{}, err
	}
	return draftReview(author, d, p), nil
}

// ReviewDrafts lists author's pending reviews of pull request number, as
// listed with the chain's (state pending, ids from DraftIDBase).
func (s *Service) ReviewDrafts(ctx context.Context, author index.User, repo, number uint64) ([]index.Review, error) {
	out := []index.Review{}
	if s.drafts == nil {
		return out, nil
	}
	list, err := s.drafts.ReviewDraftsOf(ctx, draftKey(common.HexToAddress(author.Address)), repo, number)
	if err != nil {
		return nil, err
	}
	for _, d := range list {
		var p chainforge.PullReview
		if err := json.Unmarshal([]byte(d.Payload), &p); err != nil {
			return nil, fmt.Errorf("decode review draft %d: %w", d.ID, err)
		}
		out = append(out, draftReview(author, d, p))
	}
	return out, nil
}

func (s *Service) reviewDraft(ctx context.Context, author index.User, repo, number, id uint64) (store.ReviewDraft, chainforge.PullReview, error) {
	var p chainforge.PullReview
	if s.drafts != nil && IsDraftID(id) {
		list, err := s.drafts.ReviewDraftsOf(ctx, draftKey(common.HexToAddress(author.Address)), repo, number)
		if err != nil {
			return store.ReviewDraft{}, p, err
		}
		for _, d := range list {
			if uint64(d.ID)+DraftIDBase == id {
				if err := json.Unmarshal([]byte(d.Payload), &p); err != nil {
					return d, p, fmt.Errorf("decode review draft %d: %w", d.ID, err)
				}
				return d, p, nil
			}
		}
	}
	// Someone else's draft is as missing as one that never was.
	return store.ReviewDraft{}, p, usererr.Missingf("there is no pending review %d of this pull request", id)
}

// SubmitReviewDraft sends author's pending review id as pr.review with
// state and, if not empty, body in place of the draft's; then deletes the
// draft. A failure to send leaves the draft as it was.
func (s *Service) SubmitReviewDraft(ctx context.Context, author index.User, repo, number, id uint64, state, body string) (Result, error) {
	// 1. The draft, if it is the author's.
	d, p, err := s.reviewDraft(ctx, author, repo, number, id)
	if err != nil {
		return Result{}, err
	}
	// 2. On chain, as a review created at once would be.
	p.State = state
	if strings.TrimSpace(body) != "" {
		p.Body = body
	}
	if p.Comments == nil {
		p.Comments = []chainforge.PullReviewComment{}
	}
	res, err := s.Do(ctx, common.HexToAddress(author.Address), p)
	if err != nil {
		return Result{}, err
	}
	// 3. The draft is gone; if deleting fails, the review is on chain
	// anyway, so say so in the log rather than fail the request.
	if _, err := s.drafts.DeleteReviewDraft(ctx, d.Author, d.ID); err != nil {
		s.log.Error("delete a submitted review draft", "draft", d.ID, "err", err)
	}
	return res, nil
}

// DeleteReviewDraft deletes author's pending review id.
func (s *Service) DeleteReviewDraft(ctx context.Context, author index.User, repo, number, id uint64) error {
	d, _, err := s.reviewDraft(ctx, author, repo, number, id)
	if err != nil {
		return err
	}
	if _, err := s.drafts.DeleteReviewDraft(ctx, d.Author, d.ID); err != nil {
		return fmt.Errorf("delete review draft: %w", err)
	}
	return nil
}

func draftReview(author index.User, d store.ReviewDraft, p chainforge.PullReview) index.Review {
	id := DraftIDBase + uint64(d.ID)
	rv := index.Review{ID: id, Author: author, State: ReviewPending, Body: p.Body, CommitSHA: p.CommitSHA,
		Submitted: d.CreatedAt.UTC().Format("2006-01-02T15:04:05.999999999Z07:00"), Comments: []index.ReviewComment{}}
	for i, c := range p.Comments {
		// Comment ids of a draft: its id times 1000 plus the comment's place,
		// apart from the chain's comment ids as the review's are.
		rv.Comments = append(rv.Comments, index.ReviewComment{ID: DraftIDBase + uint64(d.ID)*1000 + uint64(i) + 1, ReviewID: id,
			Path: c.Path, Line: c.Line, Side: c.Side, Body: c.Body})
	}
	return rv
}
