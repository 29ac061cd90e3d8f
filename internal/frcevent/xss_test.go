package frcevent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/frcevent/board"
	"github.com/robohornets/robohornets/internal/frcevent/replay"
)

// TestHostileEventDataStaysText plays the hostile event of the pit
// display's browser test (frontend/e2e/fixtures/hostile-event.json: markup
// in team numbers, labels, statuses, announcements, parts requests, the pit,
// the event's name, timezone and webcasts, and in TBA's HTML status strings)
// through the real clients, hub and merge.
//
// Every field of the Status is plain text, which the page writes as text:
// Go hands the upstream's words on unchanged, neither stripping nor
// decoding them (stripping would eat an honest "<" and still be no reason
// for the page to trust a string). What Go does own is checked here: TBA's
// *_status_str, which are HTML, never reach the page; webcast links are
// built by Go as https links to known hosts whatever the channel says; and
// the JSON the page reads escapes <, >, & and line breaks, so no string can
// end an inline script or split an event of the live stream.
func TestHostileEventDataStaysText(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "frontend", "e2e", "fixtures", "hostile-event.json"))
	if err != nil {
		t.Fatal(err)
	}
	tl, err := replay.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	up := tl.Steps[0].State
	e := newEnv(t, tl)
	opts := e.options()
	opts.EventKey = tl.Event
	h, _ := e.runHub(t, opts, 2)
	s := waitFor(t, h, "the hostile event", func(s board.Status) bool {
		return s.NextMatch != nil && s.Rank != nil && len(s.Announcements) == len(up.Announcements) && s.EventName != ""
	})

	t.Run("text arrives unchanged", func(t *testing.T) {
		next := up.Nexus.Matches[1]
		for _, c := range []struct{ what, got, want string }{
			{"event name", s.EventName, up.Event.Name},
			{"timezone", s.Timezone, up.Event.Timezone},
			{"now queuing", s.NowQueuing, *up.Nexus.NowQueuing},
			{"pit", s.Pit, up.Pits["1209"]},
			{"next match label", s.NextMatch.Label, next.Label},
			{"next match status", s.NextMatch.Status, next.Status},
			{"break after", s.NextMatch.BreakAfter, next.BreakAfter},
			{"replay of", s.NextMatch.ReplayOf, next.ReplayOf},
			{"red alliance", strings.Join(s.NextMatch.Red, "|"), joinSeats(next.RedTeams)},
			{"blue alliance", strings.Join(s.NextMatch.Blue, "|"), joinSeats(next.BlueTeams)},
		} {
			if c.got != c.want {
				t.Errorf("%s = %q, want %q as upstream sent it", c.what, c.got, c.want)
			}
		}
		var got, want []string
		for _, a := range s.Announcements {
			got = append(got, a.ID+": "+a.Text)
		}
		for _, a := range up.Announcements {
			want = append(want, a.ID+": "+a.Text)
		}
		for _, p := range s.PartsRequests {
			got = append(got, p.ID+": "+p.Team+" needs "+p.Parts)
		}
		for _, p := range up.PartsRequests {
			want = append(want, p.ID+": "+p.Team+" needs "+p.Parts)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("notices = %q\nwant %q", got, want)
		}
	})

	body, _ := h.JSON()
	t.Run("TBA's HTML status strings never reach the page", func(t *testing.T) {
		for _, html := range []string{up.TeamStatus.OverallStatusStr, up.TeamStatus.AllianceStatusStr, up.TeamStatus.PlayoffStatusStr} {
			enc, _ := json.Marshal(html)
			if bytes.Contains(body, enc[1:len(enc)-1]) {
				t.Errorf("the Status holds TBA's status string %q:\n%s", html, body)
			}
		}
	})

	t.Run("webcasts are https links to their sites", func(t *testing.T) {
		if len(s.Webcasts) != 2 {
			t.Errorf("webcasts = %+v, want the twitch and youtube ones only (the others have types Go cannot build a link for)", s.Webcasts)
		}
		for _, w := range s.Webcasts {
			if !strings.HasPrefix(w.URL, "https://www.twitch.tv/") && !strings.HasPrefix(w.URL, "https://www.youtube.com/watch?v=") {
				t.Errorf("webcast %+v links elsewhere", w)
			}
			if strings.ContainsAny(w.URL, `<>"' `) {
				t.Errorf("webcast %+v has the channel's markup in its URL unescaped", w)
			}
		}
	})

	t.Run("the JSON cannot end a script or an event", func(t *testing.T) {
		if i := bytes.IndexAny(body, "<>&\n\r\u2028\u2029"); i >= 0 {
			t.Errorf("the Status JSON has %q unescaped at %d:\n%s", body[i], i, body)
		}
	})
}

// joinSeats joins a replay alliance the way Status lists it: "" for an
// undecided seat.
func joinSeats(seats []*string) string {
	out := make([]string, len(seats))
	for i, s := range seats {
		if s != nil {
			out[i] = *s
		}
	}
	return strings.Join(out, "|")
}
