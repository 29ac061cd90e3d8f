package news

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// seedFiles are the sample articles a new local store starts with.
//
//go:embed seed/*.md
var seedFiles embed.FS

// SampleArticles returns the sample articles a fresh local store is seeded with.
func SampleArticles() ([]Article, error) {
	names, err := fs.Glob(seedFiles, "seed/*.md")
	if err != nil {
		return nil, err
	}
	articles := make([]Article, 0, len(names))
	for _, name := range names {
		data, err := seedFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		id := strings.TrimSuffix(strings.TrimPrefix(name, "seed/"), ".md")
		a, err := ParseFile(id, data)
		if err != nil {
			return nil, fmt.Errorf("news: sample %s: %w", name, err)
		}
		articles = append(articles, a)
	}
	return articles, nil
}
