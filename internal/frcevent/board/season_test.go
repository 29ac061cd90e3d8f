package board

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/frcapi"
)

func TestSeasonResultOf(t *testing.T) {
	// Statuses in TBA's shape, as its statuses endpoint answers for each event.
	tests := []struct {
		name   string
		status string
		want   *SeasonResult
	}{
		{"null status", `null`, nil},
		{"not yet started", `{"qual": null, "alliance": null, "playoff": null, "overall_status_str": "--"}`,
			&SeasonResult{Playoff: SeasonPlayoff{Kind: SeasonPlayoffNone}}},
		{"qualifications, not ranked yet", `{"qual": {"num_teams": 40, "status": "playing", "ranking": null}, "playoff": null}`,
			&SeasonResult{Of: 40, Playoff: SeasonPlayoff{Kind: SeasonPlayoffNone}}},
		{"not selected", `{"qual": {"num_teams": 38, "status": "completed", "ranking": {"rank": 30, "record": {"wins": 3, "losses": 8, "ties": 1}}}, "alliance": null, "playoff": null}`,
			&SeasonResult{Rank: 30, Of: 38, Record: &Record{3, 8, 1}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffNone}}},
		{"won", `{"qual": {"num_teams": 54, "status": "completed", "ranking": {"rank": 7, "record": {"wins": 8, "losses": 1, "ties": 0}}},
			"alliance": {"name": "Alliance 2", "number": 2, "pick": 1, "backup": null},
			"playoff": {"level": "f", "status": "won", "double_elim_round": "Finals", "record": {"wins": 5, "losses": 0, "ties": 0}, "current_level_record": {"wins": 2, "losses": 0, "ties": 0}, "playoff_type": 10},
			"playoff_status_str": "<b>Won the event</b>"}`,
			&SeasonResult{Rank: 7, Of: 54, Record: &Record{8, 1, 0}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffWon, Alliance: 2, Record: &Record{5, 0, 0}}}},
		{"finalist", `{"qual": {"num_teams": 54, "status": "completed", "ranking": {"rank": 4, "record": {"wins": 8, "losses": 1, "ties": 0}}},
			"alliance": {"name": "Alliance 3", "number": 3, "pick": 0},
			"playoff": {"level": "f", "status": "eliminated", "double_elim_round": "Finals", "record": {"wins": 4, "losses": 3, "ties": 0}}}`,
			&SeasonResult{Rank: 4, Of: 54, Record: &Record{8, 1, 0}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffFinalist, Alliance: 3, Record: &Record{4, 3, 0}}}},
		{"eliminated in round 4", `{"qual": {"num_teams": 38, "status": "completed", "ranking": {"rank": 12, "record": {"wins": 6, "losses": 5, "ties": 1}}},
			"alliance": {"name": "Alliance 5", "number": 5, "pick": 1},
			"playoff": {"level": "sf", "status": "eliminated", "double_elim_round": "Round 4", "record": {"wins": 2, "losses": 2, "ties": 0}}}`,
			&SeasonResult{Rank: 12, Of: 38, Record: &Record{6, 5, 1}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffEliminated, Alliance: 5, Level: PlayoffLevelBracket, Round: 4, Record: &Record{2, 2, 0}}}},
		{"playing in round 2", `{"qual": {"num_teams": 30, "status": "completed", "ranking": {"rank": 2, "record": {"wins": 9, "losses": 1, "ties": 0}}},
			"alliance": {"name": "Alliance 2", "number": 2, "pick": 0},
			"playoff": {"level": "sf", "status": "playing", "double_elim_round": "Round 2", "record": {"wins": 0, "losses": 1, "ties": 0}}}`,
			&SeasonResult{Rank: 2, Of: 30, Record: &Record{9, 1, 0}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffPlaying, Alliance: 2, Level: PlayoffLevelBracket, Round: 2, Record: &Record{0, 1, 0}}}},
		{"playing the finals", `{"alliance": {"number": 1, "pick": 2},
			"playoff": {"level": "f", "status": "playing", "double_elim_round": "Finals", "record": {"wins": 4, "losses": 0, "ties": 0}}}`,
			&SeasonResult{Playoff: SeasonPlayoff{Kind: SeasonPlayoffPlaying, Alliance: 1, Level: PlayoffLevelFinals, Record: &Record{4, 0, 0}}}},
		{"double elimination without a round (2023's statuses)", `{"alliance": {"number": 6, "pick": 1},
			"playoff": {"level": "sf", "status": "eliminated", "record": {"wins": 1, "losses": 2, "ties": 0}}}`,
			&SeasonResult{Playoff: SeasonPlayoff{Kind: SeasonPlayoffEliminated, Alliance: 6, Level: PlayoffLevelBracket, Record: &Record{1, 2, 0}}}},
		{"an older bracket's quarterfinals", `{"alliance": {"number": 8, "pick": 0},
			"playoff": {"level": "qf", "status": "eliminated", "record": {"wins": 0, "losses": 2, "ties": 0}, "playoff_type": 0}}`,
			&SeasonResult{Playoff: SeasonPlayoff{Kind: SeasonPlayoffEliminated, Alliance: 8, Level: PlayoffLevelQuarterfinals, Record: &Record{0, 2, 0}}}},
		{"an older bracket's semifinals (type 0, 8 alliances)", `{"alliance": {"number": 1, "pick": 0},
			"playoff": {"level": "sf", "status": "eliminated", "record": {"wins": 3, "losses": 2, "ties": 0}, "playoff_type": 0}}`,
			&SeasonResult{Playoff: SeasonPlayoff{Kind: SeasonPlayoffEliminated, Alliance: 1, Level: PlayoffLevelSemifinals, Record: &Record{3, 2, 0}}}},
		{"double elimination's sf, typed", `{"alliance": {"number": 1, "pick": 0},
			"playoff": {"level": "sf", "status": "eliminated", "record": {"wins": 3, "losses": 2, "ties": 0}, "playoff_type": 11}}`,
			&SeasonResult{Playoff: SeasonPlayoff{Kind: SeasonPlayoffEliminated, Alliance: 1, Level: PlayoffLevelBracket, Record: &Record{3, 2, 0}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var st *frcapi.TBATeamEventStatus
			if err := json.Unmarshal([]byte(tt.status), &st); err != nil {
				t.Fatal(err)
			}
			if got := SeasonResultOf(st); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("SeasonResultOf = %s, want %s", jsonOf(got), jsonOf(tt.want))
			}
		})
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestMergeSeason(t *testing.T) {
	now := time.Date(2026, 3, 14, 20, 0, 0, 0, time.UTC)
	sd := &SeasonData{
		Year: 2026,
		Events: []EventInfo{
			{Key: "2026okcmp", Name: "Oklahoma State Championship", StartDate: "2026-04-09", EndDate: "2026-04-12", City: "Oklahoma City", StateProv: "OK", Country: "USA"},
			{Key: "2026demo", Name: "RoboHornets Demo Regional", StartDate: "2026-03-13", EndDate: "2026-03-15", City: "Tulsa", StateProv: "OK", Country: "USA"},
			{Key: "2026arfs", Name: "Fort Smith Regional", StartDate: "2026-02-20", EndDate: "2026-02-22", City: "Fort Smith", StateProv: "AR"},
		},
		Results: map[string]*SeasonResult{
			"2026arfs":  {Rank: 12, Of: 38, Record: &Record{6, 5, 1}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffEliminated, Alliance: 5, Level: PlayoffLevelBracket, Round: 4, Record: &Record{2, 2, 0}}},
			"2026demo":  {Rank: 3, Of: 24, Record: &Record{5, 1, 0}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffNone}},
			"2026okcmp": nil,
		},
		Awards: map[string][]string{"2026arfs": {"Judges' Award"}},
	}
	want := []SeasonEvent{
		{Key: "2026arfs", Name: "Fort Smith Regional", Place: "Fort Smith, AR", Start: "2026-02-20", End: "2026-02-22",
			Rank: 12, Of: 38, Record: &Record{6, 5, 1}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffEliminated, Alliance: 5, Level: PlayoffLevelBracket, Round: 4, Record: &Record{2, 2, 0}},
			Awards: []string{"Judges' Award"}},
		{Key: "2026demo", Name: "RoboHornets Demo Regional", Place: "Tulsa, OK, USA", Start: "2026-03-13", End: "2026-03-15",
			Rank: 3, Of: 24, Record: &Record{5, 1, 0}, Playoff: SeasonPlayoff{Kind: SeasonPlayoffNone}, Awards: []string{}},
		{Key: "2026okcmp", Name: "Oklahoma State Championship", Place: "Oklahoma City, OK, USA", Start: "2026-04-09", End: "2026-04-12",
			Playoff: SeasonPlayoff{Kind: SeasonPlayoffNone}, Awards: []string{}},
	}
	for _, configured := range []bool{true, false} {
		s := Merge(Upstream{Team: 1209, Configured: configured, EventKey: "2026demo", Season: sd}, now)
		if !reflect.DeepEqual(s.Season, want) {
			t.Errorf("configured %v: season = %s\nwant %s", configured, jsonOf(s.Season), jsonOf(want))
		}
		s.Season[0].Playoff.Record.Wins = 99 // the Status is the page's: not the data kept
		if sd.Results["2026arfs"].Playoff.Record.Wins != 2 {
			t.Fatal("the Status shares the season's records")
		}
	}
	// Before TBA answers, and encoded: a list, never null.
	s := Merge(Upstream{Team: 1209}, now)
	if b, _ := json.Marshal(s); s.Season == nil || !json.Valid(b) || !strings.Contains(string(b), `"season":[]`) {
		t.Fatalf("season before TBA = %#v", s.Season)
	}
	// The JSON the page reads: the kinds' own fields only.
	b, _ := json.Marshal(want[0].Playoff)
	if got := string(b); got != `{"kind":"eliminated","alliance":5,"level":"bracket","round":4,"record":{"wins":2,"losses":2,"ties":0}}` {
		t.Errorf("eliminated encodes as %s", got)
	}
	b, _ = json.Marshal(want[2].Playoff)
	if got := string(b); got != `{"kind":"none","alliance":0,"round":0}` {
		t.Errorf("none encodes as %s", got)
	}
}

func TestSeasonAwards(t *testing.T) {
	got := SeasonAwards([]frcapi.TBAAward{
		{Name: "Judges' Award", AwardType: 13, EventKey: "2026arfs"},
		{Name: "Regional Winners", AwardType: 1, EventKey: "2026demo"},
		{Name: "Quality Award", AwardType: 17, EventKey: "2026demo"},
	})
	want := map[string][]string{"2026arfs": {"Judges' Award"}, "2026demo": {"Regional Winners", "Quality Award"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SeasonAwards = %v, want %v", got, want)
	}
}
