package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/vitals"
)

// maxVitalBody is the largest web-vitals report accepted.
const maxVitalBody = 4 << 10

func (a *API) postWebVital(w http.ResponseWriter, r *http.Request) {
	var rep vitals.Report
	if err := decode(w, r, maxVitalBody, &rep); err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := a.vitals.Record(r.Context(), rep); err != nil {
		a.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) getWebVitals(w http.ResponseWriter, r *http.Request) {
	sums, err := a.vitals.Summaries(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"windowDays": int(vitals.Window.Hours() / 24), "metrics": sums})
}
