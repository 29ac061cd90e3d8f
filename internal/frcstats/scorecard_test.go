package frcstats

import (
	"github.com/robohornets/robohornets/bench/part"

	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tbaEvents are the events whose predictions by The Blue Alliance's own model are in testdata
// (see testdata/SOURCES.md). They are held out: no constant of the model was fitted on them.
var tbaEvents = []string{"2016nyny", "2017nyny", "2018nyny", "2019nyny", "2020scmb"}

// tbaPredictions are TBA's predictions of one event's qualification matches, as reduced into
// testdata: per match the alliance TBA predicts to win and its chance to (prob ≥ 0.5; red when
// TBA's two predicted scores are equal), and TBA's own stored Brier score of them (win_loss).
type tbaPredictions struct {
	Event   string  `json:"event"`
	WinLoss float64 `json:"win_loss"`
	Matches []struct {
		Key             string  `json:"key"`
		WinningAlliance string  `json:"winning_alliance"`
		Prob            float64 `json:"prob"`
	} `json:"matches"`
}

// cardRow is one line of the scorecard: the Brier scores of our chance and TBA's on all the
// matches TBA predicted, and on those where our model gives a chance too.
type cardRow struct {
	name                 string
	n, nBoth             int
	ours, tba            float64 // over the n matches
	oursBoth, tbaBoth    float64 // over the nBoth matches
	tbaStored, tbaMisses float64 // TBA's stored win_loss; the same recomputed with ties as misses
}

// sums adds the squared errors of one row, to be divided into a cardRow.
type sums struct {
	n, nBoth                             int
	ours, tba, oursBoth, tbaBoth, misses float64
}

func (s sums) row(name string, stored float64) cardRow {
	n, nb := float64(s.n), float64(s.nBoth)
	return cardRow{name: name, n: s.n, nBoth: s.nBoth, ours: s.ours / n, tba: s.tba / n,
		oursBoth: s.oursBoth / nb, tbaBoth: s.tbaBoth / nb, tbaStored: stored, tbaMisses: s.misses / n}
}

func (s *sums) add(o sums) {
	s.n += o.n
	s.nBoth += o.nBoth
	s.ours += o.ours
	s.tba += o.tba
	s.oursBoth += o.oursBoth
	s.tbaBoth += o.tbaBoth
	s.misses += o.misses
}

// scoreAgainstTBA replays ev in the order its results became known and scores, on every match
// TBA predicted, our chance from the matches before it (Predict; an even 0.5 where Predict
// declines, before MinPlayed) and TBA's, both as red's chance against red's result (1 win, 0
// loss, ½ tie). misses is TBA's own rule, by which its stored win_loss was computed: (prob − 1)²
// when the predicted winner won, prob² otherwise, a tie included.
func scoreAgainstTBA(t *testing.T, ev event, pred tbaPredictions) sums {
	t.Helper()
	byKey := map[string]int{}
	for i, k := range ev.keys {
		byKey[k] = i
	}
	predicted := map[string]bool{}
	var s sums
	for _, p := range pred.Matches {
		predicted[p.Key] = true
		if _, ok := byKey[p.Key]; !ok {
			t.Fatalf("%s: TBA predicted %s, which is not in the event's matches", ev.key, p.Key)
		}
	}
	for _, key := range ev.keys {
		if !predicted[key] {
			t.Fatalf("%s: TBA did not predict %s", ev.key, key)
		}
	}
	for _, p := range pred.Matches {
		i := byKey[p.Key]
		y := ev.outcome[i]
		var tbaRed float64
		switch p.WinningAlliance {
		case "red":
			tbaRed = p.Prob
		case "blue":
			tbaRed = 1 - p.Prob
		default:
			t.Fatalf("%s: predicted winner %q", p.Key, p.WinningAlliance)
		}
		hit := 0.0
		if (p.WinningAlliance == "red" && y == 1) || (p.WinningAlliance == "blue" && y == 0) {
			hit = 1
		}
		s.misses += (p.Prob - hit) * (p.Prob - hit)
		ours, ok := Predict(ev.played[:i], ev.played[i].Red, ev.played[i].Blue)
		if !ok {
			ours = 0.5
		}
		s.n++
		s.ours += (ours - y) * (ours - y)
		s.tba += (tbaRed - y) * (tbaRed - y)
		if ok {
			s.nBoth++
			s.oursBoth += (ours - y) * (ours - y)
			s.tbaBoth += (tbaRed - y) * (tbaRed - y)
		}
	}
	return s
}

func loadTBAPredictions(t *testing.T, key string) tbaPredictions {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", key+"_predictions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p tbaPredictions
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	if p.Event != key || len(p.Matches) == 0 {
		t.Fatalf("%s: event %q with %d predictions", key, p.Event, len(p.Matches))
	}
	return p
}

// scorecardTable is the markdown table of the scorecard, as docs/win-chance.md holds it.
func scorecardTable(rows []cardRow, pooled cardRow) string {
	var b strings.Builder
	b.WriteString("| event | matches | ours | TBA | both predict | ours | TBA | TBA's stored win_loss | recomputed, ties as misses |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %.4f | %.4f | %d | %.4f | %.4f | %.4f | %.4f |\n",
			r.name, r.n, r.ours, r.tba, r.nBoth, r.oursBoth, r.tbaBoth, r.tbaStored, r.tbaMisses)
	}
	fmt.Fprintf(&b, "| **pooled** | %d | **%.4f** | **%.4f** | %d | %.4f | %.4f | | %.4f |\n",
		pooled.n, pooled.ours, pooled.tba, pooled.nBoth, pooled.oursBoth, pooled.tbaBoth, pooled.tbaMisses)
	return b.String()
}

// TestScorecard scores our win chance against The Blue Alliance's on exactly the qualification
// matches TBA predicted at the events of tbaEvents, each match predicted from the matches
// before it only. It fails if the data do not hold together (a match predicted but not played
// or the reverse, TBA's Brier recomputed from its probabilities not its stored figure) or if
// docs/win-chance.md does not show the table the committed data and model give. Whether ours is
// the lower is a goal, reported rather than asserted: with -v it prints the table, and with
// ROBOHORNETS_BENCH_OUT set it writes the bench part win-chance-vs-tba.json there.
func TestScorecard(t *testing.T) {
	var rows []cardRow
	var all sums
	for _, key := range tbaEvents {
		pred := loadTBAPredictions(t, key)
		s := scoreAgainstTBA(t, loadEvent(t, key), pred)
		r := s.row(key, pred.WinLoss)
		// TBA's stored figure is its own rule's mean over the same matches: equal but for the
		// last bits of floating-point summing.
		if math.Abs(r.tbaMisses-pred.WinLoss) > 1e-12 {
			t.Errorf("%s: TBA's Brier recomputed %.15f, stored %.15f", key, r.tbaMisses, pred.WinLoss)
		}
		rows = append(rows, r)
		all.add(s)
	}
	pooled := all.row("pooled", math.NaN())
	table := scorecardTable(rows, pooled)
	if testing.Verbose() {
		fmt.Printf("\nOur win chance against TBA's (Brier; lower is better)\n\n%s", table)
	}

	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "win-chance.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(docs), table) {
		t.Errorf("docs/win-chance.md does not hold the scorecard of the committed data and model; it is now:\n%s", table)
	}

	if err := part.Write("win-chance-vs-tba", scorecardPart(pooled, table)); err != nil {
		t.Fatal(err)
	}
}

// scorecardPart is the scorecard as a part of make bench (docs/BENCHMARKS.md): one goal row,
// ours ≤ TBA's pooled, and the table.
func scorecardPart(pooled cardRow, table string) part.Part {
	return part.Part{
		Section: "Win chance against The Blue Alliance's predictions",
		Command: "go test -count=1 -run TestScorecard -v ./internal/frcstats",
		Goals: []part.Goal{{
			What:   fmt.Sprintf("Brier vs TBA, pooled over %d matches of %d events: ours %.4f vs TBA %.4f", pooled.n, len(tbaEvents), pooled.ours, pooled.tba),
			Figure: fmt.Sprintf("%.4f", pooled.ours),
			Goal:   fmt.Sprintf("≤ TBA's %.4f", pooled.tba),
			Anchor: fmt.Sprintf("where both predict (%d matches): ours %.4f vs TBA %.4f", pooled.nBoth, pooled.oursBoth, pooled.tbaBoth),
			Met:    pooled.ours <= pooled.tba,
		}},
		Body: "Brier scores (lower is better) of our win chance and of The Blue Alliance's, on every " +
			"qualification match TBA predicted at the events whose predictions are in its repository's " +
			"test data, each match predicted from the matches before it only; ours is 0.5 where it " +
			"declines (the first " + fmt.Sprint(MinPlayed) + " matches of each event). The method and the reading: " +
			"docs/win-chance.md.\n\n" + table,
	}
}
