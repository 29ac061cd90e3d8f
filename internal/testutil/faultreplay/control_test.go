package faultreplay

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/testutil/replaytest"
)

func TestControlHandler(t *testing.T) {
	f := newFixture(t)
	h := f.Server.ControlHandler()
	tests := []struct {
		body string
		code int
	}{
		{`{"fault":"down"}`, 200},
		{`{"fault":""}`, 200},
		{`{"fault":"hang"}`, 200},
		{`{"fault":"403","api":"nexus"}`, 200},
		{`{"fault":"truncated"}`, 200},
		{`{"fault":"truncated-chunked"}`, 200},
		{`{"fault":"flap"}`, 200},
		{`{"fault":"500","api":"tba"}`, 200},
		{`{"fault":"explode"}`, 400},
		{`{"fault":"500","api":"frc"}`, 400},
		{`not json`, 400},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/control", strings.NewReader(tt.body)))
		if rec.Code != tt.code {
			t.Errorf("POST %s = %d, want %d", tt.body, rec.Code, tt.code)
		}
		if tt.code == 400 && !strings.Contains(rec.Body.String(), "truncated-chunked|huge|down|flap|") {
			t.Errorf("POST %s: %q does not list the faults", tt.body, rec.Body)
		}
	}
	if resp, _ := f.Get(t, replaytest.TBAPath, "X-TBA-Auth-Key", "tk"); resp.StatusCode != 500 {
		t.Fatalf("after control: %d, want 500", resp.StatusCode)
	}
}
