package news

import (
	"fmt"
	"testing"
	"time"

	"github.com/robohornets/robohornets/internal/clock"
)

func benchmarkArticle(b *testing.B) Article {
	b.Helper()
	samples, err := SampleArticles()
	if err != nil {
		b.Fatal(err)
	}
	longest := samples[0]
	for _, a := range samples {
		if len(a.Content) > len(longest.Content) {
			longest = a
		}
	}
	return longest
}

func BenchmarkRender(b *testing.B) {
	a := benchmarkArticle(b)
	b.SetBytes(int64(len(a.Content)))
	for b.Loop() {
		if _, err := Render(a.Content); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPreview(b *testing.B) {
	a := benchmarkArticle(b)
	for b.Loop() {
		if _, err := Preview(a.Content); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHubPublish measures one store change reaching 1000 subscribers:
// rendering the list and waking every subscriber.
func BenchmarkHubPublish(b *testing.B) {
	store := newScriptedStore()
	// After the articles' dates (article): a hub holds an article dated
	// after its clock's now as scheduled, and publishes nothing for it.
	hub := NewHub(HubOptions{Store: store, Clock: clock.NewFake(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))})
	defer runHub(hub)()
	<-store.Watches
	subs := make([]<-chan struct{}, 1000)
	for i := range subs {
		ch, stop := hub.Subscribe()
		defer stop()
		subs[i] = ch
	}
	base := make([]Article, 20)
	for i := range base {
		base[i] = article(fmt.Sprint("a", i), i%28+1)
	}
	n := 0
	for b.Loop() {
		n++
		list := append([]Article{article(fmt.Sprint("new", n), 28)}, base...)
		store.Values <- list
		for _, ch := range subs {
			<-ch
		}
	}
}
