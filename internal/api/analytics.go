package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/vitals"
)

// maxVitalBody is the largest web-vitals report accepted.
const maxVitalBody = 4 << 10

func (a *API) postWebVital(w http.ResponseWriter, r *http.Request) error {
	var rep vitals.Report
	if err := Decode(w, r, maxVitalBody, &rep); err != nil {
		return err
	}
	if err := a.vitals.Record(r.Context(), rep); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) getWebVitals(w http.ResponseWriter, r *http.Request) error {
	sums, err := a.vitals.Summaries(r.Context())
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, map[string]any{"windowDays": int(vitals.Window.Hours() / 24), "metrics": sums})
	return nil
}
