// Package datadir is the layout of the app's data directory (--data): the
// one place that says where each of its files lives.
package datadir

import (
	"path/filepath"
	"runtime"
)

// Dir is a data directory.
type Dir string

// Default is the per-user data directory, from the environment as getenv
// reads it and the user's home directory (""  when there is none):
// $XDG_DATA_HOME/robohornets, else %LocalAppData%\robohornets on Windows,
// else HOME/.local/share/robohornets, else robohornets-data in the working
// directory.
func Default(getenv func(string) string, home string) Dir {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return Dir(filepath.Join(d, "robohornets"))
	}
	if runtime.GOOS == "windows" {
		if d := getenv("LocalAppData"); d != "" {
			return Dir(filepath.Join(d, "robohornets"))
		}
	}
	if home != "" {
		return Dir(filepath.Join(home, ".local", "share", "robohornets"))
	}
	return "robohornets-data"
}

// News holds the local news store: one markdown file per article.
func (d Dir) News() string { return filepath.Join(string(d), "news") }

// Console holds the team console's local document store (docstore.Local):
// one directory per collection and a blobs directory for photos.
func (d Dir) Console() string { return filepath.Join(string(d), "console") }

// Cache holds the last good data of the live sources, for a restart
// without them.
func (d Dir) Cache() string { return filepath.Join(string(d), "cache") }

// NewsCache is the last good news list.
func (d Dir) NewsCache() string { return filepath.Join(d.Cache(), "news.json") }

// EventCache is the last good data of the pit display.
func (d Dir) EventCache() string { return filepath.Join(d.Cache(), "event.json") }
