package alerts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// boardFixtures is where the board's own fixtures live: the Status of
// every phase of an event, written by board's TestPitFixtures and
// rendered by the pit's tests. Reading them here holds the rules to the
// statuses the board really makes.
var boardFixtures = filepath.Join("..", "..", "..", "frontend", "src", "shared", "event", "testdata")

// fixtureTime is the time the board merged its fixtures at (board's t0).
var fixtureTime = time.Date(2026, 3, 14, 15, 0, 0, 0, time.UTC)

// loadFixtures returns the board's fixtures by name ("qualifications").
func loadFixtures(t *testing.T) map[string]board.Status {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(boardFixtures, "*.json"))
	if err != nil || len(files) < 17 {
		t.Fatalf("the board's fixtures in %s: %d files, %v (did they move? see board's TestPitFixtures)", boardFixtures, len(files), err)
	}
	out := map[string]board.Status{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx struct {
			Status board.Status `json:"status"`
		}
		if err := json.Unmarshal(data, &fx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = fx.Status
	}
	return out
}

// TestNothingChangedNothingSent: a Status compared with itself gives no
// alert, for every board the fixtures hold; and every pair of them gives
// well-formed alerts, each ID once.
func TestNothingChangedNothingSent(t *testing.T) {
	fixtures := loadFixtures(t)
	for name, s := range fixtures {
		if got := Changes(s, s, fixtureTime); len(got) != 0 {
			t.Errorf("%s against itself: %v", name, ids(got))
		}
		for other, next := range fixtures {
			got := Changes(s, next, fixtureTime)
			checkWords(t, 1209, got)
			if u := slices.Compact(slices.Sorted(slices.Values(ids(got)))); len(u) != len(got) {
				t.Errorf("%s to %s: an ID twice in %v", name, other, ids(got))
			}
		}
	}
}

// TestFixtureChanges: the alerts of the board's fixtures taken in the
// order an event goes through them.
func TestFixtureChanges(t *testing.T) {
	fixtures := loadFixtures(t)
	tests := []struct {
		prev, next string
		want       []string
	}{
		{"before-schedule", "qualifications", []string{
			"result/2026test/qualification-1", "result/2026test/qualification-3",
			"queue/2026test/qualification-5/0", "queue/2026test/qualification-5/1", "queue/2026test/qualification-5/2", "queue/2026test/qualification-5/3",
			"queue/2026test/qualification-7/3",
		}},
		{"selection-not-picked", "selection", []string{"selection/2026test"}},
		{"selection", "selection-done", nil},
		{"selection-not-picked", "not-selected", []string{"selection/2026test/none"}},
		{"selection-done", "playoffs-upper", []string{"result/2026test/playoff-4"}},
		{"selection-done", "playoffs-lower", []string{"result/2026test/playoff-4"}},
		{"playoffs-lower", "eliminated", []string{"result/2026test/playoff-6", "playoffs/2026test/eliminated"}},
		{"finals-0-1", "finalists", []string{"result/2026test/final-2", "playoffs/2026test/finalists"}},
		{"four-playoffs", "four-finals", []string{"result/2026test/playoff-3"}},
		{"four-lower", "four-eliminated", []string{"result/2026test/playoff-4", "playoffs/2026test/eliminated"}},
	}
	for _, tt := range tests {
		t.Run(tt.prev+" to "+tt.next, func(t *testing.T) {
			got := ids(Changes(fixtures[tt.prev], fixtures[tt.next], fixtureTime))
			if want := append([]string{}, tt.want...); !slices.Equal(got, want) {
				t.Errorf("Changes = %v, want %v", got, want)
			}
		})
	}

	t.Run("the words of a real board", func(t *testing.T) {
		got := Changes(fixtures["before-schedule"], fixtures["qualifications"], fixtureTime)
		want := map[string]Alert{
			"result/2026test/qualification-3": {ID: "result/2026test/qualification-3", Kind: KindResults, Title: "1209 ties 70–70 in Qualification 3",
				Body: "Next: Qualification 5.", Path: "/follow", Tag: "match/2026test/qualification-3"},
			"queue/2026test/qualification-5/0": {ID: "queue/2026test/qualification-5/0", Kind: KindQueuing, Title: "1209 is on deck for Qualification 5",
				Body: "Red alliance with 254 and 1678 vs 111, 222, 333. Starts in about 5 min.", Path: "/follow", Tag: "match/2026test/qualification-5",
				Urgent: true, Expires: fixtureTime.Add(5 * time.Minute)},
		}
		for _, a := range got {
			if w, ok := want[a.ID]; ok && !reflect.DeepEqual(a, w) {
				t.Errorf("%s =\n%+v\nwant\n%+v", a.ID, a, w)
			}
		}
		sel := Changes(fixtures["selection-not-picked"], fixtures["selection-done"], fixtureTime)
		if len(sel) != 1 || sel[0].Title != "1209 is the first pick of Alliance 3" || sel[0].Body != "With 301 and 303. Next: Playoff 4." {
			t.Errorf("selection: %+v", sel)
		}
	})
}
