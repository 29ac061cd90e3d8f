package server

import (
	"net/http"
	"net/url"
	"strings"
)

// Console is the team console as the website needs it (*console.Console):
// its API under /admin/api/, and whether a request carries a valid session.
type Console interface {
	http.Handler
	SignedIn(r *http.Request) bool
}

// The console's public pages: every other page under /admin, and every file
// of its chunks (assets/console/), needs a session.
const (
	adminSignIn = "/admin/signin"
	adminEnrol  = "/admin/enrol"
	// consoleAssets is where the build puts the console's chunks
	// (frontend/vite.config.ts).
	consoleAssets = "assets/console/"
)

// cachePrivate lets only the signed-in browser keep a console file; a shared
// cache must not hand it to anyone else.
var cachePrivate = []string{"private, max-age=31536000, immutable"}

// consoleAPIMethods are the methods of the console's API, each a pattern
// of its own: a method-less /admin/api/ would conflict with the pages' GET /.
var consoleAPIMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}

// serveConsoleAPI hands /admin/api/ to the console.
func (s *Server) serveConsoleAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Robots-Tag", "noindex")
	if s.opts.Console == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "this server has no console"})
		return
	}
	s.opts.Console.ServeHTTP(w, r)
}

// serveAdminPage answers a page under /admin: the app's index for the
// console to render, after sign-in unless it is the sign-in or enrol page.
// Without a console (the window), the pages are the app's, which says to use
// a phone or a browser.
func (s *Server) serveAdminPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Robots-Tag", "noindex")
	public := r.URL.Path == adminSignIn || r.URL.Path == adminEnrol
	if s.opts.Console != nil && !public && !s.opts.Console.SignedIn(r) {
		next := r.URL.Path
		if r.URL.RawQuery != "" {
			next += "?" + r.URL.RawQuery
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, adminSignIn+"?next="+url.QueryEscape(next), http.StatusSeeOther)
		return
	}
	if s.assets.index == nil {
		serveNotBuilt(w)
		return
	}
	page := newBody(s.assets.index.render(s.pageFor(r.URL.Path, s.opts.Hub.Current(), nil)), "text/html; charset=utf-8")
	page.serve(w, r, cacheNoStore)
}

// serveConsoleAsset serves a file of the console's chunks to a signed-in
// browser only: nothing of the console is reachable without a session.
func (s *Server) serveConsoleAsset(w http.ResponseWriter, r *http.Request) {
	if s.opts.Console == nil || !s.opts.Console.SignedIn(r) {
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, "sign in to the console first", http.StatusUnauthorized)
		return
	}
	f, ok := s.assets.files[strings.TrimPrefix(r.URL.Path, "/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Vary", "Cookie")
	f.serve(w, r, cachePrivate)
}

// serveMedia serves the console's photos, or 404 without a media store.
func (s *Server) serveMedia(w http.ResponseWriter, r *http.Request) {
	if s.opts.Media == nil {
		http.NotFound(w, r)
		return
	}
	s.opts.Media.ServeHTTP(w, r)
}
