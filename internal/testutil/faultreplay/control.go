package faultreplay

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

// ControlHandler returns the handler of POST /control, which takes
// {"fault": "FAULT", "api": "nexus|tba|"}, FAULT one of the Fault values
// ("" to serve again), so a test driving a separate process can make
// upstream fail and come back.
func (h *Handler) ControlHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			Fault Fault         `json:"fault"`
			API   frcapi.Source `json:"api"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&req); err != nil || !req.Fault.Valid() ||
			(req.API != "" && req.API != frcapi.Nexus && req.API != frcapi.TBA) {
			http.Error(w, controlUsage, http.StatusBadRequest)
			return
		}
		h.SetFault(req.API, req.Fault)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(req) // the client hung up: nothing to do
	})
}

// controlUsage is what POST /control answers to a request it does not take.
var controlUsage = func() string {
	names := make([]string, 0, len(known)+1)
	for _, f := range known {
		names = append(names, string(f))
	}
	return `want {"fault":"` + strings.Join(append(names, ""), "|") + `","api":"nexus|tba|"}`
}()
