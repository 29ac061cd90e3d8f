package alerts

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/frcevent/board"
)

// TestChangesFiresNothing: the changes that must not notify anyone.
func TestChangesFiresNothing(t *testing.T) {
	queuingNow := with(quals(), onField("Qualification 42"), step(board.StepQueuing))
	won := scored(qm(44), 87, 64)
	tests := []struct {
		name       string
		prev, next board.Status
	}{
		{"same status twice", queuingNow, queuingNow},
		{"restart: zero prev", board.Status{}, queuingNow},
		{"prev not configured", with(queuingNow, func(s *board.Status) { s.Configured = false }), queuingNow},
		{"next not configured", quals(), board.Status{Configured: false, Message: "No event found for team 1209 today"}},
		{"another event", with(quals(), func(s *board.Status) { s.EventKey = "2026txda" }), queuingNow},
		{"another team", with(quals(), func(s *board.Status) { s.Team = 2357 }), queuingNow},
		{"no next match", with(quals(), func(s *board.Status) { s.NextMatch = nil }),
			with(quals(), func(s *board.Status) { s.NextMatch, s.NowQueuing = nil, "Qualification 44" }, onField("Qualification 43"))},
		{"queuing soon is not queuing", quals(), with(quals(), func(s *board.Status) { s.NextMatch.Status = "Queuing soon" })},
		{"another match queuing", quals(), with(quals(), func(s *board.Status) { s.NowQueuing = "Qualification 43" })},
		{"far from the field", with(quals(), onField("Qualification 39")), with(quals(), onField("Qualification 40"))},
		{"count across words", quals(), with(quals(), onField("Practice 43"))},
		{"count from a replay on the field", quals(), with(quals(), onField("Qualification 43 Replay"))},
		{"the field past our match", quals(), with(quals(), onField("Qualification 45"))},
		{"a played match's queue", with(quals(), func(s *board.Status) { s.Recent = []board.Match{won} }),
			with(quals(), onField("Qualification 43"), step(board.StepQueuing))},
		{"a match on the field is not queued", quals(), with(quals(), func(s *board.Status) {
			m := *s.NextMatch
			m.Times.ActualStart = &t0
			s.NextMatch = &m
		}, step(board.StepQueuing))},
		{"on field without a result", with(quals(), step(board.StepOnDeck)), with(quals(), func(s *board.Status) {
			m := qm(44)
			m.Step = board.StepOnField
			s.NextMatch, s.Recent, s.OnField = nil, []board.Match{m}, &m
		})},
		{"a result seen before", with(quals(), func(s *board.Status) { s.Recent = []board.Match{won} }),
			with(quals(), func(s *board.Status) { s.Recent = []board.Match{scored(qm(44), 90, 64)} })},
		{"a captain who has not picked", with(quals(), func(s *board.Status) { s.Phase = board.PhaseAllianceSelection }),
			with(quals(), selecting(4, "captain"))},
		{"alliances while selection goes on, we on none", quals(), with(quals(), func(s *board.Status) {
			s.Playoffs = &board.Playoffs{Alliances: []board.Alliance{{Number: 1, Teams: []string{"1", "2", "3"}}}}
		})},
		{"same place twice", with(quals(), selecting(3, "first pick", "301", "303")), with(quals(), selecting(3, "first pick", "301", "303"), func(s *board.Status) {
			s.Playoffs.SelectionDone = true
		})},
		{"outcome seen before", with(quals(), ended(board.OutcomeEliminated)), with(quals(), ended(board.OutcomeEliminated))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Changes(tt.prev, tt.next, t0); len(got) != 0 {
				t.Errorf("Changes = %v, want none", ids(got))
			}
		})
	}
}

// TestQueueCalls: which change of the queue or the field calls which lead.
func TestQueueCalls(t *testing.T) {
	start := t0.Add(12 * time.Minute)
	body := "Red alliance with 2357 and 4500 vs 1234, 5678, 9012. Starts in about 12 min."
	call := func(n int, title string) Alert {
		return Alert{ID: "queue/2026okok/qualification-44/" + string(rune('0'+n)), Kind: KindQueuing, Title: title, Body: body,
			Path: "/follow", Tag: "match/2026okok/qualification-44", Urgent: true, Expires: start, MatchesAhead: n}
	}
	queuingTitle := "1209 is queuing for Qualification 44"
	tests := []struct {
		name       string
		prev, next board.Status
		want       []Alert
	}{
		{"three matches ahead", with(quals(), onField("Qualification 40")), with(quals(), onField("Qualification 41")),
			[]Alert{call(3, "1209 plays in 3 matches: Qualification 44")}},
		{"two matches ahead", with(quals(), onField("Qualification 41")), with(quals(), onField("Qualification 42")),
			[]Alert{call(2, "1209 plays in 2 matches: Qualification 44")}},
		{"next up", with(quals(), onField("Qualification 42")), with(quals(), onField("Qualification 43")),
			[]Alert{call(1, "1209 plays next: Qualification 44")}},
		{"the count jumps: every lead passed, with the true count", with(quals(), onField("Qualification 38")), with(quals(), onField("Qualification 42")),
			[]Alert{call(2, "1209 plays in 2 matches: Qualification 44"), call(3, "1209 plays in 2 matches: Qualification 44")}},
		{"the field comes back after a break", quals(), with(quals(), onField("Qualification 43")),
			[]Alert{call(1, "1209 plays next: Qualification 44"), call(2, "1209 plays next: Qualification 44"), call(3, "1209 plays next: Qualification 44")}},
		{"now queuing: the leads not reached go with it", with(quals(), onField("Qualification 41")), with(quals(), onField("Qualification 42"), step(board.StepQueuing)),
			[]Alert{call(0, queuingTitle), call(1, queuingTitle), call(2, queuingTitle)}},
		{"now queuing after every lead", with(quals(), onField("Qualification 43")), with(quals(), onField("Qualification 43"), step(board.StepQueuing)),
			[]Alert{call(0, queuingTitle)}},
		{"Nexus's now queuing names it", with(quals(), onField("Qualification 43")),
			with(quals(), onField("Qualification 43"), func(s *board.Status) { s.NowQueuing = "Qualification 44" }),
			[]Alert{call(0, queuingTitle)}},
		{"on deck, queuing not seen", with(quals(), onField("Qualification 43")), with(quals(), onField("Qualification 43"), step(board.StepOnDeck)),
			[]Alert{call(0, "1209 is on deck for Qualification 44")}},
		{"queuing without Nexus's field: every lead with it", quals(), with(quals(), step(board.StepQueuing)),
			[]Alert{call(0, queuingTitle), call(1, queuingTitle), call(2, queuingTitle), call(3, queuingTitle)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Changes(tt.prev, tt.next, t0)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Changes =\n%+v\nwant\n%+v", got, tt.want)
			}
			checkWords(t, 1209, got)
		})
	}
}

// TestQueueCallWords: the body and expiry of a queue call from what is
// known of the match.
func TestQueueCallWords(t *testing.T) {
	at := func(kind board.TimeKind, d time.Duration) func(*board.Status) {
		return func(s *board.Status) { s.NextMatch.When = &board.When{Kind: kind, At: t0.Add(d)} }
	}
	tests := []struct {
		name    string
		change  func(*board.Status)
		body    string
		expires time.Time
	}{
		{"estimated", at(board.TimeEstimated, 12*time.Minute), "Red alliance with 2357 and 4500 vs 1234, 5678, 9012. Starts in about 12 min.", t0.Add(12 * time.Minute)},
		{"scheduled only", at(board.TimeScheduled, 40*time.Minute), "Red alliance with 2357 and 4500 vs 1234, 5678, 9012. Scheduled in about 40 min.", t0.Add(40 * time.Minute)},
		{"over an hour", at(board.TimeEstimated, 75*time.Minute), "Red alliance with 2357 and 4500 vs 1234, 5678, 9012. Starts in about 1 h 15 min.", t0.Add(75 * time.Minute)},
		{"the estimate has passed", at(board.TimeEstimated, -2*time.Minute), "Red alliance with 2357 and 4500 vs 1234, 5678, 9012. Starts any minute.", t0.Add(5 * time.Minute)},
		{"the schedule has passed", at(board.TimeScheduled, -20*time.Minute), "Red alliance with 2357 and 4500 vs 1234, 5678, 9012.", t0.Add(5 * time.Minute)},
		{"no time", func(s *board.Status) { s.NextMatch.When = nil }, "Red alliance with 2357 and 4500 vs 1234, 5678, 9012.", time.Time{}},
		{"blue", func(s *board.Status) {
			s.NextMatch.Alliance, s.NextMatch.Red, s.NextMatch.Blue = board.ColourBlue, []string{"1234", "5678", "9012"}, []string{"2357", "1209", "4500"}
		}, "Blue alliance with 2357 and 4500 vs 1234, 5678, 9012. Starts in about 12 min.", t0.Add(12 * time.Minute)},
		{"unknown opponents and a partner to be decided", func(s *board.Status) {
			s.NextMatch.Label, s.NextMatch.Red, s.NextMatch.Blue, s.NextMatch.Partners = "Playoff 44", []string{"1209", "", "4500"}, []string{}, []string{"", "4500"}
		}, "Red alliance with 4500. Starts in about 12 min.", t0.Add(12 * time.Minute)},
		{"no colour yet", func(s *board.Status) {
			s.NextMatch.Label, s.NextMatch.Alliance, s.NextMatch.Red, s.NextMatch.Blue, s.NextMatch.Partners = "Playoff 44", board.ColourNone, []string{}, []string{}, []string{}
		}, "Starts in about 12 min.", t0.Add(12 * time.Minute)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := with(quals(), func(s *board.Status) { m := *s.NextMatch; s.NextMatch = &m }, tt.change, step(board.StepQueuing), onField("Playoff 43"))
			prev := with(next, step(board.StepNone))
			got := Changes(prev, next, t0)
			if len(got) == 0 || got[0].MatchesAhead != 0 || got[0].Body != tt.body || !got[0].Expires.Equal(tt.expires) {
				t.Fatalf("Changes = %+v, want a call now with body %q expiring %v", got, tt.body, tt.expires)
			}
			checkWords(t, 1209, got)
		})
	}
}

// TestQueueCallsOfUpcoming: back to back, the match after our next one is
// called too, and a call comes once per match and lead.
func TestQueueCallsOfUpcoming(t *testing.T) {
	q45 := qm(45)
	prev := with(quals(), onField("Qualification 43"), step(board.StepQueuing), func(s *board.Status) { s.Upcoming = []board.Match{q45} })
	q45.Step = board.StepQueuing
	next := with(prev, step(board.StepOnDeck), func(s *board.Status) { s.Upcoming = []board.Match{q45} })
	want := []string{"queue/2026okok/qualification-45/0", "queue/2026okok/qualification-45/1"}
	if got := ids(Changes(prev, next, t0)); !slices.Equal(got, want) {
		t.Errorf("Changes = %v, want %v", got, want)
	}
}

// TestResults: a result once per match, worded from our side.
func TestResults(t *testing.T) {
	q52 := qm(52)
	playedQ44 := func(red, blue int, rank *board.Rank, record ...board.Result) func(*board.Status) {
		return func(s *board.Status) {
			m := scored(qm(44), red, blue)
			s.NextMatch, s.Recent, s.Rank = &q52, []board.Match{m}, rank
			s.Schedule = nil
			for i, r := range record {
				s.Schedule = append(s.Schedule, board.Match{Label: "Qualification " + string(rune('1'+i)), Result: r})
			}
			s.Schedule = append(s.Schedule, m, q52)
		}
	}
	rank := &board.Rank{Rank: 5, Of: 30, Record: board.Record{Wins: 4, Losses: 1}}
	onFieldQ44 := with(quals(), func(s *board.Status) {
		s.NextMatch.Step = board.StepOnField
		s.Recent = []board.Match{*s.NextMatch}
		s.NextMatch = &q52
	})
	result := func(title, body string) []Alert {
		return []Alert{{ID: "result/2026okok/qualification-44", Kind: KindResults, Title: title, Body: body, Path: "/follow", Tag: "match/2026okok/qualification-44"}}
	}
	tests := []struct {
		name       string
		prev, next board.Status
		want       []Alert
	}{
		{"a win, rank and record up to date", onFieldQ44, with(quals(), playedQ44(87, 64, rank, board.ResultWin, board.ResultWin, board.ResultLoss, board.ResultWin)),
			result("1209 wins 87–64 in Qualification 44", "Rank 5 of 30, record 4-1-0. Next: Qualification 52.")},
		{"a loss before the rankings follow", onFieldQ44, with(quals(), playedQ44(60, 71, rank, board.ResultWin, board.ResultWin, board.ResultLoss, board.ResultWin, board.ResultWin)),
			result("1209 loses 60–71 in Qualification 44", "Next: Qualification 52.")},
		{"a tie, no rank yet", quals(), with(quals(), playedQ44(70, 70, nil)),
			result("1209 ties 70–70 in Qualification 44", "Next: Qualification 52.")},
		{"our score first when blue", quals(), with(quals(), playedQ44(87, 64, nil), func(s *board.Status) {
			m := s.Recent[0]
			m.Alliance, m.Red, m.Blue, m.Result = board.ColourBlue, m.Blue, m.Red, board.ResultLoss
			s.Recent, s.NextMatch = []board.Match{m}, nil
		}), result("1209 loses 64–87 in Qualification 44", "")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Changes(tt.prev, tt.next, t0)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Changes =\n%+v\nwant\n%+v", got, tt.want)
			}
			checkWords(t, 1209, got)
		})
	}

	t.Run("two at once, oldest first", func(t *testing.T) {
		next := with(quals(), func(s *board.Status) {
			s.Recent = []board.Match{scored(qm(45), 50, 40), scored(qm(44), 30, 40)}
			s.NextMatch = nil
		})
		want := []string{"result/2026okok/qualification-44", "result/2026okok/qualification-45"}
		if got := ids(Changes(quals(), next, t0)); !slices.Equal(got, want) {
			t.Errorf("Changes = %v, want %v", got, want)
		}
	})
	t.Run("a replay has its own result", func(t *testing.T) {
		first := scored(qm(44), 87, 64)
		replay := scored(qm(44), 60, 71)
		replay.Label, replay.ReplayOf = "Qualification 44 Replay", "Qualification 44"
		prev := with(quals(), func(s *board.Status) { s.Recent, s.NextMatch = []board.Match{first}, nil })
		next := with(quals(), func(s *board.Status) { s.Recent, s.NextMatch = []board.Match{replay, first}, nil })
		got := Changes(prev, next, t0)
		if len(got) != 1 || got[0].ID != "result/2026okok/qualification-44-replay" || got[0].Title != "1209 loses 60–71 in Qualification 44 Replay" {
			t.Errorf("Changes = %+v, want the replay's loss", got)
		}
	})
	t.Run("a playoff game of the finals", func(t *testing.T) {
		final2 := scored(board.Match{Label: "Final 2", Alliance: board.ColourBlue, Red: []string{"2", "20", "200"}, Blue: []string{"1209", "301", "303"}}, 120, 98)
		final3 := board.Match{Label: "Final 3", Alliance: board.ColourBlue}
		playoffs := func(wins, losses int, series *board.Series) func(*board.Status) {
			return func(s *board.Status) {
				s.Phase = board.PhasePlayoffs
				s.Playoffs = &board.Playoffs{SelectionDone: true, Ours: &board.OurAlliance{Number: 3, Role: "first pick", Partners: []string{"301", "303"}},
					Record: board.Record{Wins: wins, Losses: losses}, State: board.AlliancePlaying, Round: "Finals",
					Next: &board.PlayoffNext{Game: 3, Alliance: board.ColourBlue, Series: series}}
			}
		}
		unplayed := board.Match{Label: "Final 2", Alliance: board.ColourBlue}
		prev := with(quals(), playoffs(5, 1, &board.Series{Ours: 1}), func(s *board.Status) { s.NextMatch = &unplayed })
		next := with(quals(), playoffs(5, 2, &board.Series{Ours: 1, Theirs: 1}), func(s *board.Status) { s.Recent, s.NextMatch = []board.Match{final2}, &final3 })
		got := Changes(prev, next, t0)
		want := []Alert{{ID: "result/2026okok/final-2", Kind: KindResults, Title: "1209 loses 98–120 in Final 2",
			Body: "Finals 1–1. Playoff record 5-2-0. Next: Final 3.", Path: "/follow", Tag: "match/2026okok/final-2"}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Changes =\n%+v\nwant\n%+v", got, want)
		}
	})
}

// selecting puts us on alliance number as role, with partners, while
// selection goes on.
func selecting(number int, role string, partners ...string) func(*board.Status) {
	return func(s *board.Status) {
		s.Phase, s.NextMatch = board.PhaseAllianceSelection, nil
		s.Playoffs = &board.Playoffs{Ours: &board.OurAlliance{Number: number, Role: role, Partners: append([]string{}, partners...)}}
		for n := 1; n <= 8; n++ {
			s.Playoffs.Alliances = append(s.Playoffs.Alliances, board.Alliance{Number: n, Teams: []string{"9" + string(rune('0'+n))}, Ours: n == number})
		}
	}
}

// ended ends our playoffs with outcome, Alliance 3 out in Round 2 at 0-2.
func ended(o board.Outcome) func(*board.Status) {
	return func(s *board.Status) {
		s.Phase, s.NextMatch = board.PhasePlayoffs, nil
		s.Playoffs = &board.Playoffs{SelectionDone: true, Ours: &board.OurAlliance{Number: 3, Role: "first pick", Partners: []string{"301", "303"}},
			Record: board.Record{Losses: 2}, Round: "Round 2", State: board.AllianceEliminated, Outcome: o}
	}
}

// TestSelection: our place once it is final, or none, each once.
func TestSelection(t *testing.T) {
	selectionOn := with(quals(), func(s *board.Status) { s.Phase, s.NextMatch = board.PhaseAllianceSelection, nil })
	notPicked := with(selectionOn, selecting(1, "captain"), func(s *board.Status) { s.Playoffs.Ours, s.Playoffs.SelectionDone = nil, true })
	notice := func(id, title, body string) []Alert {
		return []Alert{{ID: id, Kind: KindSelection, Title: title, Body: body, Path: "/follow", Tag: "selection/2026okok"}}
	}
	tests := []struct {
		name       string
		prev, next board.Status
		want       []Alert
	}{
		{"a pick is final when made", selectionOn, with(selectionOn, selecting(3, "first pick", "301", "303")),
			notice("selection/2026okok", "1209 is the first pick of Alliance 3", "With 301 and 303.")},
		{"a captain once it picks", with(selectionOn, selecting(4, "captain")), with(selectionOn, selecting(4, "captain", "401")),
			notice("selection/2026okok", "1209 is captain of Alliance 4", "With 401.")},
		{"a captain picked by a higher alliance: the pick only", with(selectionOn, selecting(6, "captain")), with(selectionOn, selecting(2, "first pick", "201")),
			notice("selection/2026okok", "1209 is the first pick of Alliance 2", "With 201.")},
		{"a captain once selection is done, with the first match", with(selectionOn, selecting(8, "captain")),
			with(selectionOn, selecting(8, "captain"), func(s *board.Status) {
				s.Playoffs.SelectionDone = true
				s.NextMatch = &board.Match{Label: "Playoff 1"}
			}),
			notice("selection/2026okok", "1209 is captain of Alliance 8", "Next: Playoff 1.")},
		{"not picked", with(selectionOn, selecting(1, "captain"), func(s *board.Status) { s.Playoffs.Ours = nil }),
			with(notPicked, func(s *board.Status) { s.Rank = &board.Rank{Rank: 25, Of: 30} }),
			notice("selection/2026okok/none", "1209 was not picked for the playoffs", "Alliance selection is over. We finished the qualifications ranked 25 of 30.")},
		{"called in as a backup", notPicked, with(notPicked, func(s *board.Status) {
			p := *s.Playoffs
			p.Alliances = slices.Clone(p.Alliances)
			s.Phase, s.Playoffs = board.PhasePlayoffs, &p
			s.Playoffs.Ours = &board.OurAlliance{Number: 2, Role: "backup", Partners: []string{"92", "201", "203"}}
			s.Playoffs.Alliances[1].Backup, s.Playoffs.Alliances[1].Out = "1209", "202"
		}), notice("selection/2026okok/backup", "1209 joins Alliance 2 as backup", "In for 202. With 92, 201 and 203.")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Changes(tt.prev, tt.next, t0)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Changes =\n%+v\nwant\n%+v", got, tt.want)
			}
			checkWords(t, 1209, got)
		})
	}
}

// TestOutcome: the end of our playoffs, once each.
func TestOutcome(t *testing.T) {
	playing := with(quals(), ended(board.OutcomeNone), func(s *board.Status) { s.Playoffs.State = board.AlliancePlaying })
	tests := []struct {
		outcome     board.Outcome
		title, body string
	}{
		{board.OutcomeEliminated, "1209 is out of the playoffs", "Alliance 3 was eliminated in Round 2, playoff record 0-2-0."},
		{board.OutcomeFinalists, "1209 finishes as event finalist", "Alliance 3 lost the finals, playoff record 0-2-0."},
		{board.OutcomeWinners, "1209: Event winners!", "Alliance 3 won Green Country Regional. Playoff record 0-2-0."},
	}
	for _, tt := range tests {
		t.Run(string(tt.outcome), func(t *testing.T) {
			got := Changes(playing, with(quals(), ended(tt.outcome)), t0)
			want := []Alert{{ID: "playoffs/2026okok/" + string(tt.outcome), Kind: KindPlayoffs, Title: tt.title, Body: tt.body, Path: "/follow", Tag: "playoffs/2026okok"}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Changes =\n%+v\nwant\n%+v", got, want)
			}
			checkWords(t, 1209, got)
		})
	}
}

// TestNewsPosted: a new post's alert opens the article.
func TestNewsPosted(t *testing.T) {
	got := NewsPosted("2026-03-14-regional", "We won the Green Country Regional", "Thank you to every sponsor and parent.")
	want := Alert{ID: "news/2026-03-14-regional", Kind: KindNews, Title: "1209 news: We won the Green Country Regional",
		Body: "Thank you to every sponsor and parent.", Path: "/news/2026-03-14-regional", Tag: "news/2026-03-14-regional"}
	if got != want {
		t.Errorf("NewsPosted = %+v, want %+v", got, want)
	}
	long := NewsPosted("x", strings.Repeat("long title ", 10), strings.Repeat("a long summary ", 20))
	checkWords(t, 1209, []Alert{long})
	if !strings.HasSuffix(long.Title, "…") || !strings.HasSuffix(long.Body, "…") {
		t.Errorf("a long post: %+v, want its title and body cut with an ellipsis", long)
	}
}

// TestLongLabelsAreCut: a label longer than a title allows is cut, not
// sent whole.
func TestLongLabelsAreCut(t *testing.T) {
	next := with(quals(), step(board.StepQueuing), func(s *board.Status) {
		m := *s.NextMatch
		m.Label = "Qualification 44 Replay requested by the head referee after a field fault"
		s.NextMatch = &m
	})
	got := Changes(quals(), next, t0)
	if len(got) == 0 || !strings.HasSuffix(got[0].Title, "…") {
		t.Fatalf("Changes = %+v, want calls with cut titles", got)
	}
	checkWords(t, 1209, got)
}
