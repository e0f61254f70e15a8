package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func vital(name string, value float64, rating, url string) string {
	return fmt.Sprintf(`{"name":%q,"value":%v,"rating":%q,"delta":%v,"id":"v5-1","navigationType":"navigate","timestamp":1763769600000,"url":%q,"userAgent":"test"}`,
		name, value, rating, value, url)
}

func TestWebVitalsAreStoredAndSummarised(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	for _, v := range []float64{1000, 4000, 2000, 3000} {
		res, body := do(t, "POST", srv.URL+"/api/analytics/web-vitals", vital("LCP", v, "good", "http://h/explore?q=secret#x"))
		if res.StatusCode != http.StatusNoContent {
			t.Fatalf("POST vital = %d %s, want 204", res.StatusCode, body)
		}
	}
	do(t, "POST", srv.URL+"/api/analytics/web-vitals", vital("CLS", 0.3, "poor", "http://h/"))
	_, body := do(t, "GET", srv.URL+"/api/v1/analytics/web-vitals", "")
	got := decodeJSON[struct {
		Metrics []struct {
			Metric, Page, Rating string
			P75                  float64
			Count                int
		}
	}](t, body)
	if len(got.Metrics) != 2 {
		t.Fatalf("summaries = %s, want CLS on / and LCP on /explore", body)
	}
	cls, lcp := got.Metrics[0], got.Metrics[1]
	// Nearest-rank p75 of {1000,2000,3000,4000} is the third value.
	if lcp.Metric != "LCP" || lcp.Page != "/explore" || lcp.P75 != 3000 || lcp.Count != 4 || lcp.Rating != "needs-improvement" {
		t.Errorf("LCP summary = %+v", lcp)
	}
	if cls.Metric != "CLS" || cls.Page != "/" || cls.P75 != 0.3 || cls.Rating != "poor" {
		t.Errorf("CLS summary = %+v", cls)
	}
}

func TestBadWebVitalsAreRejected(t *testing.T) {
	t.Parallel()
	srv, st := newServer(t)
	cases := map[string]struct{ body, code string }{
		"unknown metric": {vital("FID", 10, "good", "http://h/"), "unknown_metric"},
		"bad rating":     {vital("LCP", 10, "excellent", "http://h/"), "invalid_rating"},
		"negative value": {vital("LCP", -1, "good", "http://h/"), "invalid_value"},
		"string value":   {`{"name":"LCP","value":"fast","rating":"good","url":"http://h/"}`, "invalid_type"},
		"missing value":  {`{"name":"LCP","rating":"good","url":"http://h/"}`, "invalid_value"},
		"not json":       {`name=LCP`, "invalid_json"},
		"json array":     {`[1,2]`, "invalid_json"},
		"empty body":     {``, "invalid_json"},
		"over 4 KiB":     {`{"name":"LCP","value":1,"rating":"good","url":"http://h/","userAgent":"` + strings.Repeat("a", 4096) + `"}`, "body_too_large"},
		"broken url":     {vital("LCP", 1, "good", "http://[::1"), "invalid_url"},
		"long metric id": {strings.Replace(vital("LCP", 1, "good", "http://h/"), `"v5-1"`, `"`+strings.Repeat("x", 200)+`"`, 1), "field_too_long"},
	}
	for name, c := range cases {
		res, body := do(t, "POST", srv.URL+"/api/analytics/web-vitals", c.body)
		got := decodeJSON[map[string]string](t, body)
		want := http.StatusBadRequest
		if c.code == "body_too_large" {
			want = http.StatusRequestEntityTooLarge
		}
		if res.StatusCode != want || got["code"] != c.code || got["message"] == "" {
			t.Errorf("%s: %d %s, want %d with code %s", name, res.StatusCode, body, want, c.code)
		}
	}
	samples, err := st.WebVitalSamples(context.Background(), time.Time{})
	if err != nil || len(samples) != 0 {
		t.Fatalf("rejected reports were stored: %v %v", samples, err)
	}
}

func TestContactMessageIsStored(t *testing.T) {
	t.Parallel()
	srv, st := newServer(t)
	res, body := do(t, "POST", srv.URL+"/api/v1/contact", `{"name":" Ada ","email":"ada@example.org","subject":"Hello","message":"I would like to run a node."}`)
	if res.StatusCode != http.StatusCreated || !strings.Contains(body, `"id"`) {
		t.Fatalf("POST contact = %d %s, want 201 with an id", res.StatusCode, body)
	}
	msgs, err := st.ContactMessages(context.Background(), 10)
	if err != nil || len(msgs) != 1 || msgs[0].Name != "Ada" || msgs[0].Message != "I would like to run a node." {
		t.Fatalf("stored messages = %+v, %v", msgs, err)
	}
}

func TestBadContactMessagesAreRejected(t *testing.T) {
	t.Parallel()
	srv, st := newServer(t)
	cases := map[string]struct{ body, field, code string }{
		"missing name":  {`{"email":"a@b.org","subject":"s","message":"m"}`, "name", "required"},
		"bad email":     {`{"name":"n","email":"not-an-email","subject":"s","message":"m"}`, "email", "invalid_email"},
		"display email": {`{"name":"n","email":"Ada <a@b.org>","subject":"s","message":"m"}`, "email", "invalid_email"},
		"blank subject": {`{"name":"n","email":"a@b.org","subject":"   ","message":"m"}`, "subject", "required"},
		"long message":  {`{"name":"n","email":"a@b.org","subject":"s","message":"` + strings.Repeat("x", 5001) + `"}`, "message", "too_long"},
	}
	for name, c := range cases {
		res, body := do(t, "POST", srv.URL+"/api/v1/contact", c.body)
		got := decodeJSON[map[string]string](t, body)
		if res.StatusCode != 400 || got["field"] != c.field || got["code"] != c.code {
			t.Errorf("%s: %d %s, want 400 %s/%s", name, res.StatusCode, body, c.field, c.code)
		}
	}
	if msgs, _ := st.ContactMessages(context.Background(), 10); len(msgs) != 0 {
		t.Fatalf("rejected messages were stored: %+v", msgs)
	}
}

func TestContentPages(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	for _, slug := range []string{"about", "pricing", "roadmap", "team", "careers", "terms", "privacy", "license", "security", "whitepaper", "press", "partners", "integrations", "changelog", "tutorials", "code-examples", "help"} {
		res, body := do(t, "GET", srv.URL+"/api/v1/pages/"+slug, "")
		page := decodeJSON[map[string]string](t, body)
		if res.StatusCode != 200 || page["title"] == "" || !strings.Contains(page["html"], "<p>") {
			t.Errorf("page %s = %d title %q", slug, res.StatusCode, page["title"])
		}
		if strings.Contains(page["html"], "Substrate") {
			t.Errorf("page %s claims Substrate; dForge runs on CometBFT and IPFS", slug)
		}
	}
	for _, slug := range []string{"nope", "..%2Fgo.mod", "ABOUT"} {
		res, _ := do(t, "GET", srv.URL+"/api/v1/pages/"+slug, "")
		if res.StatusCode != 404 {
			t.Errorf("page %s = %d, want 404", slug, res.StatusCode)
		}
	}
}

func TestFAQHasTheFiveGroups(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	_, body := do(t, "GET", srv.URL+"/api/v1/faq", "")
	groups := decodeJSON[[]struct {
		ID    string
		Items []struct{ Question, HTML, Text string }
	}](t, body)
	var ids []string
	for _, g := range groups {
		ids = append(ids, g.ID)
		for _, it := range g.Items {
			if it.Question == "" || it.HTML == "" || it.Text == "" {
				t.Errorf("group %s has an incomplete item %+v", g.ID, it)
			}
		}
	}
	if strings.Join(ids, ",") != "general,account-security,tokens-rewards,governance,technical" {
		t.Fatalf("faq groups = %v", ids)
	}
}

func TestBlogAndDocs(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	_, body := do(t, "GET", srv.URL+"/api/v1/blog", "")
	posts := decodeJSON[[]struct{ Slug, Title, Category, HTML string }](t, body)
	if len(posts) < 3 || posts[0].Title == "" || posts[0].HTML != "" {
		t.Fatalf("blog list = %s", body)
	}
	res, body := do(t, "GET", srv.URL+"/api/v1/blog/"+posts[0].Slug, "")
	if res.StatusCode != 200 || !strings.Contains(body, `"html"`) {
		t.Fatalf("blog post = %d %s", res.StatusCode, body)
	}
	_, body = do(t, "GET", srv.URL+"/api/v1/docs", "")
	docs := decodeJSON[[]struct{ Slug string }](t, body)
	if len(docs) == 0 || docs[0].Slug != "index" {
		t.Fatalf("docs list = %s, want the index first", body)
	}
}

func TestMarkdownIsRenderedAndSanitized(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, body := do(t, "POST", srv.URL+"/api/v1/markdown", `{"Text":"**hi** <img src=x onerror=alert(1)>","Mode":"gfm"}`)
	if res.StatusCode != 200 || !strings.Contains(body, "<strong>hi</strong>") || strings.Contains(body, "onerror") {
		t.Fatalf("markdown = %d %q", res.StatusCode, body)
	}
	res, _ = do(t, "POST", srv.URL+"/api/v1/markdown", `{"text":"x","mode":"wiki-magic"}`)
	if res.StatusCode != 400 {
		t.Fatalf("markdown with bad mode = %d, want 400", res.StatusCode)
	}
}
