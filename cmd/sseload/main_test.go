package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robohornets/robohornets/bench/part"
	"github.com/robohornets/robohornets/internal/news"
	"github.com/robohornets/robohornets/internal/server"
)

func TestEventScannerAtEveryChunkSize(t *testing.T) {
	const marker = "3f9a2c1b7e0d4455"
	stream := "retry: 2000\n\n" +
		"event: news\ndata: {\"articles\":[{\"title\":\"old\"}]}\n\n" +
		": heartbeat\n\n" +
		"event: news\ndata: {\"articles\":[{\"title\":\"Load test " + marker + "\"},{\"title\":\"x\"}]}\n\n" +
		": heartbeat\n\n" +
		"event: news\ndata: {\"articles\":[{\"title\":\"Load test " + marker + "\"}]}\n\n"
	firstEnd := strings.Index(stream, "}]}\n\n") + len("}]}\n\n")
	markedEnd := strings.Index(stream, "{\"title\":\"x\"}]}\n\n") + len("{\"title\":\"x\"}]}\n\n")
	for size := 1; size <= len(stream); size++ {
		var s eventScanner
		s.expect([]byte(marker))
		firstAt, deliveredAt, deliveries := -1, -1, 0
		for off := 0; off < len(stream); off += size {
			end := min(off+size, len(stream))
			first, delivered := s.feed([]byte(stream[off:end]))
			if first && firstAt < 0 {
				firstAt = end
			}
			if delivered {
				deliveries++
				deliveredAt = end
			}
		}
		// The event is complete within the chunk that holds its blank line.
		if firstAt < firstEnd || firstAt >= firstEnd+size {
			t.Fatalf("chunks of %d: first event after byte %d, want the chunk ending the first news event (byte %d)", size, firstAt, firstEnd)
		}
		if deliveries != 1 || deliveredAt < markedEnd || deliveredAt >= markedEnd+size {
			t.Fatalf("chunks of %d: %d deliveries, the first after byte %d; want one, in the chunk ending the marked event (byte %d)", size, deliveries, deliveredAt, markedEnd)
		}
	}
}

func TestEventScannerWaitsForTheMarker(t *testing.T) {
	var s eventScanner
	s.expect([]byte("cafe0123"))
	for _, chunk := range []string{"retry: 2000\n\nevent: news\ndata: {}\n\n", ": heartbeat\n\n", "event: news\ndata: {\"a\":\"cafe01\"}\n\n"} {
		if _, delivered := s.feed([]byte(chunk)); delivered {
			t.Fatalf("delivered at %q, which lacks the marker", chunk)
		}
	}
	if _, delivered := s.feed([]byte("event: news\ndata: {\"a\":\"cafe0123\"")); delivered {
		t.Fatal("delivered before the event ended")
	}
	if _, delivered := s.feed([]byte("}\n\n")); !delivered {
		t.Fatal("not delivered when the event ended")
	}
	s.expect([]byte("beef4567"))
	if _, delivered := s.feed([]byte(": heartbeat\n\n")); delivered {
		t.Fatal("a new marker was delivered by a heartbeat")
	}
}

// TestRunAgainstServe runs the whole command against the website over a
// local store, in this process.
func TestRunAgainstServe(t *testing.T) {
	dir := t.TempDir()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub, stopHub, err := news.Start(news.Config{Kind: "local", Dir: dir, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer stopHub()
	site := server.New(server.Options{Hub: hub, Logger: logger, MaxStreamsPerClient: -1})
	srv := httptest.NewServer(site)
	defer srv.Close()

	goalsFile := filepath.Join(t.TempDir(), "goals")
	var stdout, stderr strings.Builder
	err = run(context.Background(), []string{
		"-url", srv.URL, "-n", "60", "-pid", strconv.Itoa(os.Getpid()), "-store", "local", "-data", dir,
		"-writes", "2", "-settle", "0", "-goal-kb", "1e9", "-goal-p99", "1m", "-sources", "3",
		"-goals", goalsFile, "-label", "test store",
	}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v\nstderr:\n%s", err, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"viewers:  60 ", "KB per viewer", "delivery: p50 ", "medians of 2 writes", "met"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NOT met") {
		t.Errorf("a goal was missed with goals no run can miss:\n%s", out)
	}
	// The goals for make bench's summary: memory, then delivery, one JSON line each.
	b, err := os.ReadFile(goalsFile)
	if err != nil {
		t.Fatal(err)
	}
	var goals []part.Goal
	for line := range strings.Lines(string(b)) {
		var g part.Goal
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatalf("goal line %q: %v", line, err)
		}
		goals = append(goals, g)
	}
	if len(goals) != 2 || !strings.HasPrefix(goals[0].What, "memory per live viewer, 60 viewers, test store") ||
		!strings.HasPrefix(goals[1].What, "write → every viewer p99, 60 viewers, test store") ||
		goals[1].Goal != "≤ 1m0s" || !goals[0].Met || !goals[1].Met {
		t.Errorf("goals = %+v, want memory and delivery of 60 viewers of the test store, both met", goals)
	}
	// The server sees each viewer leave when its connection closes, a
	// moment after run returns.
	deadline := time.Now().Add(10 * time.Second)
	for site.OpenStreams() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := site.OpenStreams(); n != 0 {
		t.Errorf("%d streams still open 10 s after the run", n)
	}
	list, err := news.OpenLocal(dir+"/news", logger)
	if err != nil {
		t.Fatal(err)
	}
	articles, err := list.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range articles {
		if strings.HasPrefix(a.ID, "sseload-") {
			t.Errorf("the test article %s was left in the store", a.ID)
		}
	}
}

func TestFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no url", []string{"-store", "local", "-data", "d"}, "-url"},
		{"https", []string{"-url", "https://x", "-data", "d"}, "-url"},
		{"local without data", []string{"-url", "http://127.0.0.1:1"}, "-data"},
		{"firestore without project", []string{"-url", "http://127.0.0.1:1", "-store", "firestore", "-project", ""}, "-project"},
		{"unknown store", []string{"-url", "http://127.0.0.1:1", "-store", "s3"}, "-store"},
		{"zero viewers", []string{"-url", "http://127.0.0.1:1", "-data", "d", "-n", "0"}, "-n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFlags(tt.args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want one about %s", err, tt.wantErr)
			}
		})
	}
}
