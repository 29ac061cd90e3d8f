package frcevent

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// FuzzUpstreamAnswers feeds arbitrary bodies through the real decoders of
// both sources (Nexus's event, and each TBA endpoint over HTTP as the client
// reads it) and the merge: a body is refused with an error or becomes a
// Status that encodes to JSON; nothing panics.
func FuzzUpstreamAnswers(f *testing.F) {
	f.Add([]byte(`{"eventKey":"2026okok","nowQueuing":"Qualification 3","matches":[{"label":"Qualification 3","status":"Now queuing","redTeams":["1209",null,3],"blueTeams":[],"times":{"estimatedStartTime":1790000000000}}],"announcements":[{"id":"a","announcement":"<b>hi</b>","postedTime":1790000000000}]}`),
		[]byte(`{"qual":{"ranking":{"rank":9,"record":{"wins":3,"losses":2,"ties":0}},"num_teams":30},"overall_status_str":"<b>Team 1209</b> is <b>Rank 9/30</b>"}`))
	f.Add([]byte(`{"matches":null}`), []byte(`[{"key":"2026okok_qm1","comp_level":"qm","match_number":1,"set_number":1,"alliances":{"red":{"team_keys":["frc1209"],"score":-1}},"time":1790000000}]`))
	f.Add([]byte(`{`), []byte(`[]`))
	f.Add([]byte(`{"matches":[{"label":"x","times":{"estimatedStartTime":1e300}}]}`), []byte(`{"name":"Regional","timezone":"America/Chicago","webcasts":[{"type":"youtube","channel":"x"}]}`))

	var mu sync.Mutex
	var tbaBody []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = w.Write(tbaBody)
	}))
	f.Cleanup(srv.Close)
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

	f.Fuzz(func(t *testing.T, nexusBody, tba []byte) {
		mu.Lock()
		tbaBody = tba
		mu.Unlock()
		up := board.Upstream{Team: 1209, Configured: true, EventKey: "2026okok", NexusEventKey: "2026okok"}
		up.Nexus.Health.State, up.TBA.Health.State = board.StateOK, board.StateOK
		up.Nexus.LastGood, up.TBA.LastGood = now, now
		if ev, err := parseNexusEvent("fuzz", nexusBody); err == nil {
			up.Nexus.Event = ev
		}
		c := &tbaClient{base: srv.URL, http: srv.Client(), timeout: 5 * time.Second}
		ctx := context.Background()
		up.TBA.TeamStatus, _ = c.teamStatus(ctx, 1209, "2026okok")
		up.TBA.Matches, _ = c.matches(ctx, 1209, "2026okok")
		up.TBA.Event, _ = c.event(ctx, "2026okok")
		if rs, _ := c.rankings(ctx, "2026okok"); rs != nil {
			up.TBA.Rankings, up.TBA.SortOrders = rs.Lines, rs.SortOrders
		}
		up.TBA.EventMatches, _ = c.eventMatches(ctx, "2026okok")
		up.TBA.Alliances, _ = c.alliances(ctx, "2026okok")
		up.TBA.TeamNames, _ = c.teamNames(ctx, "2026okok")
		up.TBA.DownEvents, _ = c.downEvents(ctx)
		status := board.Merge(up, now)
		if _, err := json.Marshal(status); err != nil {
			t.Fatalf("the merged Status does not encode: %v\n%+v", err, status)
		}
	})
}
