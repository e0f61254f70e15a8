// Package vitals records Core Web Vitals that browsers report and summarises
// them as the 75th percentile per metric and page, as CrUX does.
package vitals

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Window is how far back the summary looks.
const Window = 28 * 24 * time.Hour

// Report is the JSON body the web app's reporter sends.
type Report struct {
	Name           string   `json:"name"`
	Value          *float64 `json:"value"`
	Rating         string   `json:"rating"`
	Delta          *float64 `json:"delta"`
	ID             string   `json:"id"`
	NavigationType string   `json:"navigationType"`
	Timestamp      int64    `json:"timestamp"`
	URL            string   `json:"url"`
	UserAgent      string   `json:"userAgent"`
}

// Thresholds are the good and poor limits of one metric (ms, CLS unitless).
type Thresholds struct{ Good, Poor float64 }

// Metrics are the metrics accepted, with web.dev's rating thresholds.
var Metrics = map[string]Thresholds{
	"CLS":  {0.1, 0.25},
	"LCP":  {2500, 4000},
	"INP":  {200, 500},
	"FCP":  {1800, 3000},
	"TTFB": {800, 1800},
}

var ratings = map[string]bool{"good": true, "needs-improvement": true, "poor": true}

// Summary is the p75 of one metric on one page.
type Summary struct {
	Metric string  `json:"metric"`
	Page   string  `json:"page"`
	P75    float64 `json:"p75"`
	Count  int     `json:"count"`
	Rating string  `json:"rating"`
}

// Service validates, stores and summarises reports.
type Service struct {
	store *store.Store
	now   func() time.Time
}

// New returns a Service backed by st.
func New(st *store.Store) *Service { return &Service{store: st, now: time.Now} }

// Record validates one report and stores it.
func (s *Service) Record(ctx context.Context, r Report) error {
	page, err := validate(r)
	if err != nil {
		return err
	}
	v := store.WebVital{
		Name: r.Name, Value: *r.Value, Rating: r.Rating, Delta: deref(r.Delta),
		MetricID: r.ID, NavigationType: r.NavigationType, Page: page,
		UserAgent: r.UserAgent, ReportedAt: time.UnixMilli(r.Timestamp), ReceivedAt: s.now(),
	}
	if err := s.store.AddWebVital(ctx, v); err != nil {
		return fmt.Errorf("record web vital: %w", err)
	}
	return nil
}

func validate(r Report) (string, error) {
	if _, ok := Metrics[r.Name]; !ok {
		return "", usererr.InvalidField("name", "unknown_metric", "name must be one of CLS, LCP, INP, FCP, TTFB")
	}
	if r.Value == nil || !finite(*r.Value) || *r.Value < 0 {
		return "", usererr.InvalidField("value", "invalid_value", "value must be a non-negative number")
	}
	if r.Delta != nil && !finite(*r.Delta) {
		return "", usererr.InvalidField("delta", "invalid_delta", "delta must be a number")
	}
	if !ratings[r.Rating] {
		return "", usererr.InvalidField("rating", "invalid_rating", "rating must be good, needs-improvement or poor")
	}
	if len(r.ID) > 128 || len(r.NavigationType) > 32 || len(r.UserAgent) > 512 {
		return "", usererr.InvalidField("id", "field_too_long", "id, navigationType or userAgent is too long")
	}
	return pagePath(r.URL)
}

// pagePath keeps only the path of the reported URL: queries and fragments may
// carry personal data and would split one page into many rows.
func pagePath(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || len(raw) > 2048 {
		return "", usererr.InvalidField("url", "invalid_url", "url must be a valid URL")
	}
	if u.Path == "" {
		return "/", nil
	}
	// The decoded path may hold what %00 or %FF spelled: PostgreSQL
	// refuses NUL and invalid UTF-8, and no page has them in its path.
	if !utf8.ValidString(u.Path) || strings.IndexFunc(u.Path, unicode.IsControl) >= 0 {
		return "", usererr.InvalidField("url", "invalid_url", "url must be a page's URL, without control characters")
	}
	return u.Path, nil
}

// Summaries returns the p75 of every metric on every page over the window.
func (s *Service) Summaries(ctx context.Context) ([]Summary, error) {
	samples, err := s.store.WebVitalSamples(ctx, s.now().Add(-Window))
	if err != nil {
		return nil, fmt.Errorf("summarise web vitals: %w", err)
	}
	out := []Summary{}
	for start := 0; start < len(samples); {
		end := start
		for end < len(samples) && samples[end].Name == samples[start].Name && samples[end].Page == samples[start].Page {
			end++
		}
		out = append(out, summarise(samples[start:end]))
		start = end
	}
	return out, nil
}

// summarise takes the nearest-rank 75th percentile of sorted samples.
func summarise(group []store.VitalSample) Summary {
	rank := int(math.Ceil(0.75*float64(len(group)))) - 1
	p75 := group[rank].Value
	return Summary{Metric: group[0].Name, Page: group[0].Page, P75: p75, Count: len(group), Rating: Rate(group[0].Name, p75)}
}

// Rate gives the web.dev rating of a value of metric.
func Rate(metric string, v float64) string {
	t := Metrics[metric]
	switch {
	case v <= t.Good:
		return "good"
	case v <= t.Poor:
		return "needs-improvement"
	default:
		return "poor"
	}
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}
