// Package photo makes a photo from a phone camera safe for the website: it
// refuses what is not a photo or would take too much memory to decode, turns
// the picture upright, scales it down and encodes it again with no metadata,
// so a photo never publishes where it was taken.
package photo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
	"golang.org/x/sync/semaphore"
)

// MaxInputBytes is the largest upload accepted: 20 MB.
const MaxInputBytes = 20 << 20

// MaxSide is the longest side of a processed photo, in pixels.
const MaxSide = 2048

// MaxPixels bounds width×height of an input as its header declares it,
// checked before decoding so that a small file declaring a huge picture
// (a decompression bomb) is refused without allocating it.
//
// 8192×6144 is the full-resolution mode of the 50-megapixel sensors of
// current phones (8160×6144 on a Pixel, 8192×6144 on others); their usual
// photos are 12 MP. Larger modes (108 and 200 MP) are refused with a
// sentence saying the size. Within it, MaxDecodeBytes decides: the memory
// a picture takes depends on how it is stored as much as on its pixels.
// The bound stays as well because decoding and scaling take time in
// proportion to the pixels, on the one CPU an instance has.
const MaxPixels = 8192 * 6144

// MaxDecodeBytes bounds the memory one photo may take while Process
// decodes, scales, turns and encodes it, as estimated from its header
// before decoding (see estimateMemory in memory.go). A 12 MP phone photo
// (a baseline JPEG, 4:2:0) takes 35 MB (48 MB turned), a baseline 4:2:0
// JPEG at MaxPixels 92 MB. A progressive JPEG with full colour detail
// (4:4:4) takes 15 bytes a pixel, 755 MB at MaxPixels, so it is refused
// above about 8 MP, with a sentence that says to save it as a baseline
// JPEG.
const MaxDecodeBytes = 128 << 20

// MaxBytesAtOnce bounds the memory of every photo a Limiter processes at
// once: two photos at MaxDecodeBytes, or more smaller ones. With the rest
// of serve it stays within the 512 MiB instance of docs/DEPLOY.md.
const MaxBytesAtOnce = 256 << 20

// A photo within MaxDecodeBytes always fits in a Limiter: one that did not
// would wait for ever. This fails to compile otherwise.
var _ [MaxBytesAtOnce - MaxDecodeBytes]struct{}

// collectAfterBytes is the estimate from which Process runs a garbage
// collection once the photo is done. What it decoded is then garbage at
// once, and without a collection the heap would grow to twice its live
// size (GOGC's 100 %) before the next: photos of this size make the peak
// memory of serve, and a collection of its small live heap costs a few
// milliseconds against the second a large photo takes.
const collectAfterBytes = 32 << 20

// Sentinel errors of Process, for errors.Is. The errors Process returns
// wrap one of these and read as a sentence for the person who uploaded.
var (
	// ErrTooLarge: the upload is over MaxInputBytes, or the processed photo
	// does not fit in the bytes allowed.
	ErrTooLarge = errors.New("this photo is too large for the site")
	// ErrUnknownType: the file is not a JPEG, PNG, GIF or WebP image.
	ErrUnknownType = errors.New("this file is not a photo the site can use: JPEG, PNG, GIF or WebP")
	// ErrTooManyPixels: the header declares more than MaxPixels pixels.
	ErrTooManyPixels = errors.New("this photo has too many pixels for the site")
	// ErrTooMuchMemory: the photo would take more than MaxDecodeBytes to
	// process, as its header tells.
	ErrTooMuchMemory = errors.New("this photo would take too much memory for the site to read")
	// ErrUndecodable: the file has the signature of an image the site takes
	// but cannot be decoded (damaged or incomplete).
	ErrUndecodable = errors.New("this photo could not be read: the file is damaged or incomplete")
)

// userError is what Process returns: Error() is the sentence for a person,
// and errors.Is matches its sentinel (and the decoder's error, when there is
// one).
type userError struct {
	msg   string
	kind  error
	cause error
}

func (e *userError) Error() string { return e.msg }

// Unwrap returns the sentinel and, when a decoder failed, its error.
func (e *userError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// Result is a processed photo.
type Result struct {
	// Data is the encoded photo, with no metadata.
	Data []byte
	// Type is the media type: "image/jpeg" or "image/png".
	Type string
	// Ext is the file extension of Type: ".jpg" or ".png".
	Ext string
	// Width and Height are the size of Data in pixels, upright.
	Width, Height int
}

// jpegQualities are tried in order until the JPEG fits in maxBytes. Below
// 35 the blocks show, and a 2048-pixel photo that still does not fit is not
// one the site should publish.
var jpegQualities = []int{85, 75, 65, 55, 45, 35}

// format is one input type Process decodes.
type format struct {
	name   string
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}

var (
	formatJPEG = &format{"JPEG", jpeg.DecodeConfig, jpeg.Decode}
	formatPNG  = &format{"PNG", png.DecodeConfig, png.Decode}
	formatGIF  = &format{"GIF", gif.DecodeConfig, gif.Decode} // gif.Decode stops after the first frame
	formatWebP = &format{"WebP", webp.DecodeConfig, webp.Decode}
)

// Process decodes data (JPEG, PNG, GIF first frame, WebP), turns it upright
// by its EXIF orientation tag (JPEG; values 1–8), scales it down to at most
// MaxSide on the long side (never up), and re-encodes it without any
// metadata (so EXIF, GPS location, XMP, ICC and comments are gone): JPEG for
// opaque images, PNG for images with transparency. maxBytes bounds the
// output: a JPEG is re-encoded at lower quality until it fits, else
// ErrTooLarge. A photo whose header says it would take more than
// MaxDecodeBytes is refused before decoding (ErrTooMuchMemory).
//
// The input's type is told by its signature, never by a name or a declared
// type, and only these four decoders run: whatever else registers with the
// image package is not reachable through Process.
//
// Process bounds the memory of one photo; a Limiter bounds photos
// processed at once.
func Process(data []byte, maxBytes int) (Result, error) {
	return process(context.Background(), nil, data, maxBytes)
}

// Limiter processes photos within MaxBytesAtOnce together: each one
// waits until the memory its header asks for is free. Its zero value is
// not usable: call NewLimiter.
type Limiter struct {
	sem *semaphore.Weighted
}

// NewLimiter returns a Limiter of MaxBytesAtOnce bytes.
func NewLimiter() *Limiter {
	return &Limiter{sem: semaphore.NewWeighted(MaxBytesAtOnce)}
}

// Process is Process for data, once the memory it needs is free; it
// returns ctx's error, wrapped, when ctx ends while it waits.
func (l *Limiter) Process(ctx context.Context, data []byte, maxBytes int) (Result, error) {
	return process(ctx, l.sem, data, maxBytes)
}

// process is Process, holding the memory it estimates in sem (when not
// nil) while it decodes and encodes.
func process(ctx context.Context, sem *semaphore.Weighted, data []byte, maxBytes int) (Result, error) {
	if len(data) > MaxInputBytes {
		return Result{}, &userError{
			msg:  fmt.Sprintf("this file is %s; the site takes photos of up to %s", size(int64(len(data))), size(MaxInputBytes)),
			kind: ErrTooLarge,
		}
	}
	f, err := sniff(data)
	if err != nil {
		return Result{}, err
	}
	cfg, err := f.config(bytes.NewReader(data))
	if err != nil {
		return Result{}, undecodable(f, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Result{}, undecodable(f, fmt.Errorf("declared size %d×%d", cfg.Width, cfg.Height))
	}
	if n := int64(cfg.Width) * int64(cfg.Height); n > MaxPixels {
		return Result{}, &userError{
			msg: fmt.Sprintf("this photo is %d × %d pixels (%s megapixels); the site takes photos of up to %d megapixels: send a smaller one",
				cfg.Width, cfg.Height, megapixels(n), MaxPixels/1_000_000),
			kind: ErrTooManyPixels,
		}
	}
	orientation := 1
	if f == formatJPEG {
		orientation = exifOrientation(data)
	}
	est, err := estimateMemory(f, data, cfg.Width, cfg.Height, orientation, maxBytes)
	if err != nil {
		return Result{}, undecodable(f, err)
	}
	if est.bytes > MaxDecodeBytes {
		return Result{}, &userError{
			msg: fmt.Sprintf("this photo is %s of %d × %d pixels, which takes %s of memory to read; the site reads photos of up to %s: %s",
				est.kind, cfg.Width, cfg.Height, size(est.bytes), size(MaxDecodeBytes), est.advice),
			kind: ErrTooMuchMemory,
		}
	}
	if sem != nil {
		if err := sem.Acquire(ctx, est.bytes); err != nil {
			return Result{}, fmt.Errorf("photo: wait for %s of memory: %w", size(est.bytes), err)
		}
		defer sem.Release(est.bytes)
	}
	if est.bytes >= collectAfterBytes {
		// Deferred before the release above, so it runs first: the memory
		// is garbage when it is given back.
		defer runtime.GC()
	}
	img, err := f.decode(bytes.NewReader(data))
	if err != nil {
		return Result{}, undecodable(f, err)
	}

	img = orient(scale(img), orientation)
	b := img.Bounds()
	res := Result{Width: b.Dx(), Height: b.Dy()}
	// The encoders write into a buffer of maxBytes that refuses more: an
	// output too large for the site is given up as soon as it is, instead
	// of growing a buffer as large as the picture.
	out := &cappedBuffer{buf: make([]byte, 0, maxBytes)}
	if opaque(img) {
		res.Type, res.Ext = "image/jpeg", ".jpg"
		for _, q := range jpegQualities {
			out.buf = out.buf[:0]
			err := jpeg.Encode(out, img, &jpeg.Options{Quality: q})
			if errors.Is(err, errOverCap) {
				continue
			}
			if err != nil {
				return Result{}, fmt.Errorf("photo: encode JPEG: %w", err)
			}
			res.Data = bytes.Clone(out.buf)
			return res, nil
		}
		return Result{}, &userError{
			msg: fmt.Sprintf("this photo is still over the site's limit of %s at the lowest quality: send a smaller or simpler one",
				size(int64(maxBytes))),
			kind: ErrTooLarge,
		}
	}
	res.Type, res.Ext = "image/png", ".png"
	// The default level: BestCompression takes twice as long (2 s on a
	// 2048×1536 photo with alpha) to save 5 %.
	err = png.Encode(out, img)
	if errors.Is(err, errOverCap) {
		return Result{}, &userError{
			msg: fmt.Sprintf("this image has transparent parts, so it is kept as a PNG, which is over the site's limit of %s: save it without transparency (as a JPEG) or smaller",
				size(int64(maxBytes))),
			kind: ErrTooLarge,
		}
	}
	if err != nil {
		return Result{}, fmt.Errorf("photo: encode PNG: %w", err)
	}
	res.Data = bytes.Clone(out.buf)
	return res, nil
}

// errOverCap is a write past a cappedBuffer's capacity.
var errOverCap = errors.New("photo: the encoded photo is over the bytes allowed")

// cappedBuffer is a writer into buf that refuses to grow it past its
// capacity.
type cappedBuffer struct{ buf []byte }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if len(p) > cap(c.buf)-len(c.buf) {
		return 0, errOverCap
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

// sniff tells the type of data by its signature.
func sniff(data []byte) (*format, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return formatJPEG, nil
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return formatPNG, nil
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return formatGIF, nil
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return formatWebP, nil
	case isHEIF(data):
		return nil, &userError{
			msg:  "HEIC photos are not supported: share the photo as JPEG (on iPhone: Settings › Camera › Formats › Most Compatible)",
			kind: ErrUnknownType,
		}
	}
	return nil, ErrUnknownType
}

// isHEIF reports whether data starts with the ISO BMFF "ftyp" box of a HEIF
// image (what iPhones save as .heic): the major brand, or for the generic
// mif1/msf1 brands a compatible brand, names HEVC coding. AVIF, the same
// container with AV1, is left to the generic refusal.
func isHEIF(data []byte) bool {
	if len(data) < 16 || string(data[4:8]) != "ftyp" {
		return false
	}
	boxLen := int(data[0])<<24 | int(data[1])<<16 | int(data[2])<<8 | int(data[3])
	if boxLen < 16 || boxLen > len(data) {
		boxLen = len(data)
	}
	heic := func(brand string) bool {
		switch brand {
		case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs":
			return true
		}
		return false
	}
	major := string(data[8:12])
	if heic(major) {
		return true
	}
	if major != "mif1" && major != "msf1" {
		return false
	}
	// Compatible brands follow the major brand and its 4-byte minor version.
	for i := 16; i+4 <= boxLen; i += 4 {
		if heic(string(data[i : i+4])) {
			return true
		}
	}
	return false
}

func undecodable(f *format, cause error) error {
	return &userError{
		msg:   fmt.Sprintf("this %s image could not be read: the file is damaged or incomplete", f.name),
		kind:  ErrUndecodable,
		cause: cause,
	}
}

// scale returns img scaled down so that its long side is at most MaxSide,
// or img itself when it is small enough.
//
// ApproxBiLinear rather than CatmullRom: on a 12 MP photo (4032×3024 to
// 2048×1536, a factor of about 2) CatmullRom costs several times as much for
// a difference that does not show at this factor; see BenchmarkProcess12MP.
func scale(img image.Image) image.Image {
	b := img.Bounds()
	w, h := fit(b.Dx(), b.Dy())
	if w == b.Dx() && h == b.Dy() {
		return img
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// fit returns the size of a w×h picture scaled down to at most MaxSide on
// its long side, keeping its proportions; never larger than w×h.
func fit(w, h int) (int, int) {
	if w <= MaxSide && h <= MaxSide {
		return w, h
	}
	if w >= h {
		return MaxSide, max(1, (h*MaxSide+w/2)/w)
	}
	return max(1, (w*MaxSide+h/2)/h), MaxSide
}

// orient returns img turned upright by an EXIF orientation (1–8). Values
// 2, 4, 5 and 7 are mirrored; anything else but 1–8 is taken as 1.
func orient(img image.Image, o int) image.Image {
	if o < 2 || o > 8 {
		return img
	}
	src, ok := img.(*image.RGBA)
	if !ok || src.Rect.Min != (image.Point{}) {
		b := img.Bounds()
		src = image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(src, src.Rect, img, b.Min, draw.Src)
	}
	w, h := src.Rect.Dx(), src.Rect.Dy()
	dw, dh := w, h
	if o >= 5 { // 5–8 swap the sides
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := range dh {
		row := dst.Pix[y*dst.Stride : y*dst.Stride+dw*4]
		for x := range dw {
			// (sx, sy) is the stored pixel shown at (x, y), per the
			// TIFF/EXIF meaning of the tag's row and column.
			var sx, sy int
			switch o {
			case 2:
				sx, sy = w-1-x, y
			case 3:
				sx, sy = w-1-x, h-1-y
			case 4:
				sx, sy = x, h-1-y
			case 5:
				sx, sy = y, x
			case 6:
				sx, sy = y, h-1-x
			case 7:
				sx, sy = w-1-y, h-1-x
			case 8:
				sx, sy = w-1-y, x
			}
			i := sy*src.Stride + sx*4
			copy(row[x*4:x*4+4], src.Pix[i:i+4])
		}
	}
	return dst
}

// opaque reports whether every pixel of img is fully opaque. The decoders'
// image types all answer it; an image that cannot is taken as transparent
// and kept as PNG, which loses nothing.
func opaque(img image.Image) bool {
	o, ok := img.(interface{ Opaque() bool })
	return ok && o.Opaque()
}

// size formats n bytes for a person, in kB and MB of 2^10 and 2^20 bytes as
// phones show them.
func size(n int64) string {
	if n < 1<<20 {
		return strconv.FormatInt((n+1<<10-1)>>10, 10) + " kB"
	}
	return strings.TrimSuffix(strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64), ".0") + " MB"
}

func megapixels(n int64) string {
	return strconv.FormatInt((n+500_000)/1_000_000, 10)
}
