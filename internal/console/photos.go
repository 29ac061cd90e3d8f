package console

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/robohornets/robohornets/internal/docstore"
	"github.com/robohornets/robohornets/internal/photo"
)

// photoField is the multipart field that carries an uploaded photo.
const photoField = "photo"

// multipartSlack is what a multipart body may hold beyond the photo: the
// boundaries and part headers.
const multipartSlack = 64 << 10

// errPhotoTooLarge is an upload over photo.MaxInputBytes.
var errPhotoTooLarge = fmt.Errorf("this photo is larger than %d MB, the most the site takes; share a smaller version of it", photo.MaxInputBytes>>20)

// mediaName is the name a processed photo is stored and served under: its
// content's hash, so a URL never changes meaning and can be cached forever.
func mediaName(res photo.Result) string {
	sum := sha256.Sum256(res.Data)
	return hex.EncodeToString(sum[:16]) + res.Ext
}

// readPhoto returns the bytes of the request's photo field, at most
// photo.MaxInputBytes, reading the body as a stream (nothing goes to temporary
// files).
func readPhoto(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	r.Body = http.MaxBytesReader(w, r.Body, photo.MaxInputBytes+multipartSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, fmt.Errorf("%w: send the photo as multipart/form-data in the field %q", errBadBody, photoField)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: the request has no field %q", errBadBody, photoField)
		}
		if err != nil {
			return nil, uploadError(err)
		}
		if part.FormName() != photoField {
			continue // NextPart skips the rest of this part
		}
		// The body's length bounds the photo's: read into a buffer of that
		// size, not one grown by doubling, which leaves as much again of
		// garbage behind for each upload. MinRead is the room ReadFrom
		// wants to see the end without growing.
		buf := bytes.NewBuffer(make([]byte, 0, min(max(r.ContentLength, 0), photo.MaxInputBytes+multipartSlack)+bytes.MinRead))
		if _, err := buf.ReadFrom(io.LimitReader(part, photo.MaxInputBytes+1)); err != nil {
			return nil, uploadError(err)
		}
		if buf.Len() > photo.MaxInputBytes {
			return nil, errPhotoTooLarge
		}
		return buf.Bytes(), nil
	}
}

// uploadError is errPhotoTooLarge for a body over its bound, else a bad body.
func uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errPhotoTooLarge
	}
	return fmt.Errorf("%w: the upload is broken (%v); try again", errBadBody, err)
}

// serveUploadPhoto answers POST /admin/api/photos (multipart, field
// "photo"): photo.Process decodes the upload, turns it upright, scales it
// down and re-encodes it without metadata (no EXIF, no location), small
// enough for one blob of the store; it is stored under its content hash and
// the answer gives its URL and the markdown that shows it.
func (c *Console) serveUploadPhoto(w http.ResponseWriter, r *http.Request, m Member) error {
	rc := http.NewResponseController(w)
	// Connection deadlines are wall-clock time, whatever the console's
	// clock says. Where the connection allows none (a test recorder), the
	// server's own timeouts stay.
	deadline := time.Now().Add(PhotoUploadTimeout)
	_ = rc.SetReadDeadline(deadline)
	_ = rc.SetWriteDeadline(deadline)
	data, err := readPhoto(w, r)
	switch {
	case errors.Is(err, errPhotoTooLarge):
		return &apiError{http.StatusRequestEntityTooLarge, sentence(err.Error())}
	case err != nil:
		return &apiError{http.StatusBadRequest, sentence(err.Error())}
	}
	// The Limiter holds the photo's memory until Process returns, however
	// it returns, and stops waiting for it when the phone gives up.
	res, err := c.photos.Process(r.Context(), data, docstore.MaxBlobBytes)
	if err != nil {
		status := http.StatusInternalServerError
		switch {
		case r.Context().Err() != nil:
			return nil // the phone gave up; nobody is left to answer
		case errors.Is(err, photo.ErrTooLarge):
			status = http.StatusRequestEntityTooLarge
		case errors.Is(err, photo.ErrUnknownType):
			status = http.StatusUnsupportedMediaType
		case errors.Is(err, photo.ErrTooManyPixels), errors.Is(err, photo.ErrTooMuchMemory), errors.Is(err, photo.ErrUndecodable):
			status = http.StatusUnprocessableEntity
		default:
			c.opts.Logger.Error("console: process photo", "err", err)
			return &apiError{status, "The photo could not be processed."}
		}
		return &apiError{status, sentence(err.Error())}
	}
	name := mediaName(res)
	if err := c.opts.DB.PutBlob(r.Context(), name, res.Data); err != nil {
		return c.unavailable("The photo could not be stored; try again in a moment.", "console: store photo", "name", name, "err", err)
	}
	// A blob is not a document: no transaction takes it (docstore.Txn),
	// so its entry is written right after it, and the upload fails with
	// it. A blob left without an entry harms nothing: its name is its
	// content's hash, so it is the same photo if uploaded again, it is
	// not given to anyone, and a post that shows it is a change with an
	// entry of its own.
	err = c.opts.DB.Tx(r.Context(), func(tx docstore.Txn) error { return c.auditIn(tx, r, m, "upload photo", name) })
	if err != nil {
		return c.unavailable("The photo could not be stored; try again in a moment.", "console: audit photo", "name", name, "err", err)
	}
	url := "/media/" + name
	writeJSON(w, http.StatusCreated, Photo{URL: url, Markdown: "![](" + url + ")", Width: res.Width, Height: res.Height, Bytes: len(res.Data)})
	return nil
}
