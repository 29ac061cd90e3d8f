package board

import "testing"

// TestBracketRoutes checks every route of both brackets against FIRST's
// (2023 on), written out by hand: where the winner and the loser of each
// match go, and in which colour.
func TestBracketRoutes(t *testing.T) {
	out := route{out: true}
	to := func(n int, colour Colour) route { return route{next: n, colour: colour} }
	tests := []struct {
		name     string
		b        bracket
		match    int
		win, los route
	}{
		{"8: M1", bracket8, 1, to(7, "red"), to(5, "red")},
		{"8: M2", bracket8, 2, to(7, "blue"), to(5, "blue")},
		{"8: M3", bracket8, 3, to(8, "red"), to(6, "red")},
		{"8: M4", bracket8, 4, to(8, "blue"), to(6, "blue")},
		{"8: M5", bracket8, 5, to(10, "blue"), out},
		{"8: M6", bracket8, 6, to(9, "blue"), out},
		{"8: M7", bracket8, 7, to(11, "red"), to(9, "red")},
		{"8: M8", bracket8, 8, to(11, "blue"), to(10, "red")},
		{"8: M9", bracket8, 9, to(12, "blue"), out},
		{"8: M10", bracket8, 10, to(12, "red"), out},
		{"8: M11", bracket8, 11, to(0, "red"), to(13, "red")},
		{"8: M12", bracket8, 12, to(13, "blue"), out},
		{"8: M13", bracket8, 13, to(0, "blue"), out},
		{"4: M1", bracket4, 1, to(3, "red"), to(4, "red")},
		{"4: M2", bracket4, 2, to(3, "blue"), to(4, "blue")},
		{"4: M3", bracket4, 3, to(0, "red"), to(5, "red")},
		{"4: M4", bracket4, 4, to(5, "blue"), out},
		{"4: M5", bracket4, 5, to(0, "blue"), out},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			win, lose := tt.b.routes(tt.match)
			if win != tt.win || lose != tt.los {
				t.Errorf("routes(%d) = win %+v, lose %+v; want %+v, %+v", tt.match, win, lose, tt.win, tt.los)
			}
		})
	}
}

// TestBracketShape checks what makes a double-elimination bracket: every
// seed starts once, every match but the finals sends its winner on once,
// an alliance is out after its second loss, and the rounds are in order.
func TestBracketShape(t *testing.T) {
	for _, tt := range []struct {
		name               string
		b                  bracket
		alliances, matches int
	}{
		{"8 alliances", bracket8, 8, 13},
		{"4 alliances", bracket4, 4, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seeds, winners, losers := map[int]int{}, map[int]int{}, map[int]int{}
			for _, s := range tt.b {
				for _, src := range []source{s.red, s.blue} {
					switch {
					case src.seed > 0:
						seeds[src.seed]++
					case src.winnerOf > 0:
						winners[src.winnerOf]++
					default:
						losers[src.loserOf]++
					}
				}
			}
			if len(seeds) != tt.alliances || len(tt.b) != tt.matches+1 {
				t.Fatalf("%d seeds, %d matches with the finals; want %d, %d", len(seeds), len(tt.b), tt.alliances, tt.matches+1)
			}
			for n := 1; n <= tt.matches; n++ {
				if winners[n] != 1 {
					t.Errorf("the winner of M%d goes on %d times, want once", n, winners[n])
				}
			}
			// Each alliance but the winner loses twice (or once in the
			// finals' series, which counts as its second life): the
			// matches that send their loser on are those of alliances
			// still unbeaten.
			if len(losers) != tt.alliances-1 {
				t.Errorf("%d matches send their loser on, want %d (one per alliance but the last unbeaten)", len(losers), tt.alliances-1)
			}
			if tt.b[len(tt.b)-1].round != "Finals" || tt.b[len(tt.b)-1].number != 0 {
				t.Errorf("last slot = %+v, want the finals", tt.b[len(tt.b)-1])
			}
		})
	}
}

func TestBracketWire(t *testing.T) {
	for _, tt := range []struct{ got, want any }{
		{route{next: 13, colour: ColourBlue}.wire(), Route{Kind: RoutePlayoff, Match: 13, Colour: ColourBlue}},
		{route{next: 0, colour: ColourRed}.wire(), Route{Kind: RouteFinals, Colour: ColourRed}},
		{route{out: true}.wire(), Route{Kind: RouteEliminated}},
		{source{seed: 3}.wire(), BracketSource{Kind: SourceAlliance, Alliance: 3}},
		{source{winnerOf: 10}.wire(), BracketSource{Kind: SourceWinnerOf, Match: 10}},
		{source{loserOf: 11}.wire(), BracketSource{Kind: SourceLoserOf, Match: 11}},
		{playoffLabel(7), "Playoff 7"},
		{PlayoffNext{Match: 4}.label(), "Playoff 4"},
		{PlayoffNext{Game: 2}.label(), "Final 2"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %+v, want %+v", tt.got, tt.want)
		}
	}
	if bracketOf(PlayoffDoubleElim8) == nil || bracketOf(PlayoffDoubleElim4) == nil || bracketOf(9) != nil {
		t.Error("bracketOf: want the two double-elimination brackets and nothing else")
	}
}
