package console

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/robohornets/robohornets/internal/photo"
)

// gpsSecret is a marker in the EXIF of test photos that must never reach the store.
const gpsSecret = "GPS 40.7128N 74.0060W"

// cameraJPEG returns a w×h JPEG as a phone writes it: with an EXIF segment
// (here a minimal TIFF header, an empty IFD and gpsSecret after it).
func cameraJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	tiff := []byte("II*\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	payload := append(append([]byte("Exif\x00\x00"), tiff...), gpsSecret...)
	seg := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	seg = append(seg, payload...)
	out := buf.Bytes()
	return append(append(append([]byte{}, out[:2]...), seg...), out[2:]...)
}

// multipartBody returns a multipart body with data in field and its Content-Type.
func multipartBody(t *testing.T, field string, data []byte) ([]byte, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if err := mw.WriteField("note", "ignored"); err != nil {
		t.Fatal(err)
	}
	fw, err := mw.CreateFormFile(field, "IMG_0001.JPG")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return body.Bytes(), mw.FormDataContentType()
}

// upload posts data as the photo field.
func (f *contentFixture) upload(field string, data []byte) *httptest.ResponseRecorder {
	f.t.Helper()
	body, ctype := multipartBody(f.t, field, data)
	r := httptest.NewRequest("POST", "/admin/api/photos", bytes.NewReader(body))
	r.Header.Set("Content-Type", ctype)
	return f.request(alice, r)
}

func TestPhotoUploadIsStrippedStoredAndServed(t *testing.T) {
	f := newContentFixture(t)
	in := cameraJPEG(t, 300, 200)
	if !bytes.Contains(in, []byte(gpsSecret)) {
		t.Fatal("the test photo has no EXIF")
	}
	w := f.upload("photo", in)
	if w.Code != http.StatusCreated {
		t.Fatalf("upload: %d %s", w.Code, w.Body)
	}
	var p Photo
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^/media/([0-9a-f]{32}\.jpg)$`).FindStringSubmatch(p.URL)
	if m == nil || p.Markdown != "![]("+p.URL+")" || p.Width != 300 || p.Height != 200 {
		t.Fatalf("photo %+v", p)
	}
	stored, err := f.db.GetBlob(t.Context(), m[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != p.Bytes {
		t.Errorf("stored %d bytes, answer says %d", len(stored), p.Bytes)
	}
	if bytes.Contains(stored, []byte(gpsSecret)) || bytes.Contains(stored, []byte("Exif\x00")) {
		t.Error("the stored photo keeps its EXIF")
	}
	if _, err := jpeg.Decode(bytes.NewReader(stored)); err != nil {
		t.Errorf("stored photo: %v", err)
	}

	// The same photo again is the same URL.
	if again := f.upload("photo", in); !strings.Contains(again.Body.String(), p.URL) {
		t.Errorf("second upload: %s, want %s", again.Body, p.URL)
	}

	r := httptest.NewRequest("GET", p.URL, nil)
	rec := httptest.NewRecorder()
	MediaHandler(f.db).ServeHTTP(rec, r)
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), stored) {
		t.Fatalf("media: %d, %d bytes", rec.Code, rec.Body.Len())
	}
}

func TestPhotoUploadErrors(t *testing.T) {
	f := newContentFixture(t)
	// A PNG header declaring 100000×100000 pixels: 40 GB decoded.
	ihdr := []byte("IHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x02\x00\x00\x00")
	bomb := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"), ihdr...)
	bomb = binary.BigEndian.AppendUint32(bomb, crc32.ChecksumIEEE(ihdr))
	// The header of a progressive JPEG of 8192×6144 with full colour
	// detail (4:4:4), up to its first scan: 755 MB to decode.
	progressive := []byte("\xff\xd8" +
		"\xff\xc2\x00\x11\x08\x18\x00\x20\x00\x03\x01\x11\x00\x02\x11\x00\x03\x11\x00" +
		"\xff\xda\x00\x0c\x03\x01\x00\x02\x00\x03\x00\x00\x00\x01")
	heic := append([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), make([]byte, 64)...)
	tests := []struct {
		name   string
		field  string
		data   []byte
		status int
		want   string
	}{
		{"too large", "photo", make([]byte, photo.MaxInputBytes+1), http.StatusRequestEntityTooLarge, "larger than 20 MB"},
		{"far too large", "photo", make([]byte, photo.MaxInputBytes+multipartSlack+1), http.StatusRequestEntityTooLarge, "larger than 20 MB"},
		{"text", "photo", []byte("hello, this is not a photo"), http.StatusUnsupportedMediaType, "JPEG, PNG"},
		{"heic", "photo", heic, http.StatusUnsupportedMediaType, "HEIC"},
		{"truncated jpeg", "photo", cameraJPEG(t, 64, 64)[:300], http.StatusUnprocessableEntity, "could not be read"},
		{"decompression bomb", "photo", bomb, http.StatusUnprocessableEntity, "10000 megapixels"},
		{"progressive 4:4:4 JPEG", "photo", progressive, http.StatusUnprocessableEntity, "save it as a regular (baseline) JPEG"},
		{"other field", "file", cameraJPEG(t, 8, 8), http.StatusBadRequest, `no field "photo"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := f.upload(tt.field, tt.data)
			if w.Code != tt.status || !strings.Contains(errorOf(t, w), tt.want) {
				t.Errorf("%d %s, want %d with %q", w.Code, w.Body, tt.status, tt.want)
			}
		})
	}
	if w := f.do(alice, "POST", "/admin/api/photos", []byte(`{"photo":"x"}`)); w.Code != http.StatusBadRequest || !strings.Contains(errorOf(t, w), "multipart") {
		t.Errorf("JSON body: %d %s, want 400", w.Code, w.Body)
	}
	blobs, _ := f.db.List(t.Context(), "blobs")
	if len(blobs) != 0 {
		t.Errorf("refused uploads stored %d blobs", len(blobs))
	}
}
