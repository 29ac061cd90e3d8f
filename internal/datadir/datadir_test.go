package datadir

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestDefault(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	tests := []struct {
		name string
		vars map[string]string
		home string
		want Dir
	}{
		{"XDG_DATA_HOME wins", map[string]string{"XDG_DATA_HOME": "/data"}, "/home/crew", "/data/robohornets"},
		{"home", nil, "/home/crew", "/home/crew/.local/share/robohornets"},
		{"nothing", nil, "", "robohornets-data"},
	}
	if runtime.GOOS == "windows" {
		t.Skip("paths here are Unix paths")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Default(env(tt.vars), tt.home); got != tt.want {
				t.Errorf("Default = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLayout(t *testing.T) {
	d := Dir("/srv/rh")
	for got, want := range map[string]string{
		d.News():       "/srv/rh/news",
		d.Console():    "/srv/rh/console",
		d.Cache():      "/srv/rh/cache",
		d.NewsCache():  "/srv/rh/cache/news.json",
		d.EventCache(): "/srv/rh/cache/event.json",
	} {
		if got != filepath.FromSlash(want) {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
