package console

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"path"
	"regexp"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
)

// mediaPattern is the only form of a photo's name (mediaName): 32 hex
// digits of its hash and its extension.
var mediaPattern = regexp.MustCompile(`^[0-9a-f]{32}\.(jpg|png)$`)

// mediaTypes are the Content-Types of the photos' extensions.
var mediaTypes = map[string]string{".jpg": "image/jpeg", ".png": "image/png"}

// MediaHandler serves the photos the console stored in db at
// GET /media/{name}, to anyone: the name is the content's hash, so the
// answer is cached for a year as immutable, and its ETag is the name. Any
// other name is 404 without asking the store; a store that cannot be
// reached is 503.
func MediaHandler(db docstore.DB) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /media/{name}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		if !mediaPattern.MatchString(name) {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		data, err := db.GetBlob(r.Context(), name)
		if errors.Is(err, docstore.ErrNotFound) {
			http.NotFound(w, r)
			return
		}
		if err != nil {
			slog.Default().Error("console: serve media", "name", name, "err", err)
			h.Set("Cache-Control", "no-store")
			http.Error(w, "The photo store cannot be reached; try again in a moment.", http.StatusServiceUnavailable)
			return
		}
		h.Set("Content-Type", mediaTypes[path.Ext(name)])
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("ETag", `"`+name+`"`)
		// ServeContent answers If-None-Match (304), ranges and HEAD.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	})
	return mux
}
