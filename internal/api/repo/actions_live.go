package repo

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// A job's log as JSON pages, and a run's live stream (server-sent events)
// for its page.

func (a *Handler) RegisterActionLive(mux *http.ServeMux) {
	if a.Actions == nil || a.Hosting == nil {
		return
	}
	const base = "/api/v1/repos/{owner}/{repo}/actions"
	mux.HandleFunc("GET "+base+"/jobs/{job}/log", a.Serve(a.jobLogPage))
	mux.HandleFunc("GET "+base+"/runs/{run}/stream", a.Serve(a.streamRun))
}

// logRowJSON is one line of a job's log.
type logRowJSON struct {
	Index   int64  `json:"index"`
	Time    string `json:"time"`
	Content string `json:"content"`
}

func toLogRows(rows []actions.LogRow) []logRowJSON {
	out := make([]logRowJSON, len(rows))
	for i, l := range rows {
		out[i] = logRowJSON{Index: l.Index, Time: time.UnixMilli(l.Time).UTC().Format(time.RFC3339Nano), Content: l.Content}
	}
	return out
}

// maxLogPage bounds a page of log rows.
const maxLogPage = 5000

func (a *Handler) jobLogPage(w http.ResponseWriter, r *http.Request) error {
	_, _, j, err := a.jobOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	from, limit := int64(0), 1000
	if v := q.Get("from"); v != "" {
		if from, err = strconv.ParseInt(v, 10, 64); err != nil || from < 0 {
			return usererr.BadFieldf("from", "from must be a row index")
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > maxLogPage {
			return usererr.BadFieldf("limit", "limit must be 1 to %d", maxLogPage)
		}
	}
	rows, err := a.Actions.Log(r.Context(), j.ID, from, limit)
	if err != nil {
		return err
	}
	next := from + int64(len(rows))
	api.WriteJSON(w, http.StatusOK, map[string]any{"rows": toLogRows(rows), "next": next, "done": done(j.Status) && next >= j.LogRows})
	return nil
}

// runStream is what a run's stream has sent: each item's last JSON and
// each job's next log row.
type runStream struct {
	w       http.ResponseWriter
	sent    map[string]string
	logNext map[int64]int64
}

func (s *runStream) event(name, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	if key != "" && s.sent[key] == string(b) {
		return nil
	}
	if key != "" {
		s.sent[key] = string(b)
	}
	_, err = fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, b)
	return err
}

// streamRun sends a run, its jobs and their logs, then each change, until
// the run has ended and every log row has gone out.
func (a *Handler) streamRun(w http.ResponseWriter, r *http.Request) error {
	rec, run, err := a.runOf(r)
	if err != nil {
		return err
	}
	rc, release, err := api.OpenStream(w, "the run's jobs")
	if err != nil {
		return err
	}
	defer release()
	st := &runStream{w: w, sent: map[string]string{}, logNext: map[int64]int64{}}
	heartbeat := time.NewTicker(api.StreamHeartbeat)
	defer heartbeat.Stop()
	for {
		changed := a.Actions.Changes() // before the reads, so no change is missed
		ended, err := a.sendRun(r, st, rec, run.ID)
		if err != nil {
			a.Log.WarnContext(r.Context(), "run stream", "err", err)
			return nil
		}
		if ended {
			_ = st.event("end", "", struct{}{})
			_ = rc.Flush()
			return nil
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
		select {
		case <-changed:
		case <-heartbeat.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return nil
			}
		case <-r.Context().Done():
			return nil
		}
	}
}

// sendRun sends what changed in run id since the last call; it says
// whether the run has ended with every row sent.
func (a *Handler) sendRun(r *http.Request, st *runStream, rec index.Repo, id int64) (bool, error) {
	run, err := a.Actions.RunByID(r.Context(), rec.ID, id)
	if err != nil {
		return false, err
	}
	if err := st.event("run", "run", a.runJSON(r, rec, run)); err != nil {
		return false, err
	}
	jobs, err := a.Actions.Jobs(r.Context(), id)
	if err != nil {
		return false, err
	}
	all := done(run.Status)
	for _, j := range jobs {
		if err := st.event("job", "job"+strconv.FormatInt(j.ID, 10), a.jobJSON(r, rec, run, j)); err != nil {
			return false, err
		}
		for st.logNext[j.ID] < j.LogRows {
			rows, err := a.Actions.Log(r.Context(), j.ID, st.logNext[j.ID], 500)
			if err != nil || len(rows) == 0 {
				return false, err
			}
			if err := st.event("log", "", map[string]any{"job": j.ID, "rows": toLogRows(rows)}); err != nil {
				return false, err
			}
			st.logNext[j.ID] += int64(len(rows))
		}
		all = all && done(j.Status)
	}
	return all, nil
}
