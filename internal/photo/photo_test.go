package photo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/image/draw"
)

// limit is the output bound of the tests: the console's blob limit.
const limit = 1_000_000

func decode(t *testing.T, res Result) image.Image {
	t.Helper()
	img, format, err := image.Decode(bytes.NewReader(res.Data))
	if err != nil {
		t.Fatalf("output does not decode: %v", err)
	}
	if want := map[string]string{"image/jpeg": "jpeg", "image/png": "png"}[res.Type]; format != want {
		t.Fatalf("output is %s, Type says %q", format, res.Type)
	}
	if b := img.Bounds(); b.Dx() != res.Width || b.Dy() != res.Height {
		t.Fatalf("output is %v, Result says %d×%d", b, res.Width, res.Height)
	}
	return img
}

func TestMetadataRemoved(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		t.Run(order.String(), func(t *testing.T) {
			in := withSegments(encodeJPEG(t, quadrants(64, 32), 90),
				segment(0xe0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")),
				exifWith(order, 1, true),
				segment(0xe1, []byte("http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta><exif:GPSLatitude>36,9.887N</exif:GPSLatitude></x:xmpmeta>")),
				segment(0xe2, []byte("ICC_PROFILE\x00\x01\x01secret-icc-bytes")),
				segment(0xfe, []byte("secret comment")),
			)
			if exifOrientation(in) != 1 || !bytes.Contains(in, []byte("RoboPhone")) {
				t.Fatal("the input was not built with its metadata")
			}
			res, err := Process(in, limit)
			if err != nil {
				t.Fatal(err)
			}
			if res.Type != "image/jpeg" || res.Ext != ".jpg" {
				t.Fatalf("Type %q Ext %q, want image/jpeg .jpg", res.Type, res.Ext)
			}
			decode(t, res)
			for _, m := range jpegMarkers(t, res.Data) {
				if m >= 0xe0 && m <= 0xef || m == 0xfe {
					t.Errorf("output has marker %#x (APPn or COM)", m)
				}
			}
			for _, s := range []string{"Exif", "RoboPhone", "GPS", "xmpmeta", "ICC_PROFILE", "secret", "JFIF"} {
				if bytes.Contains(res.Data, []byte(s)) {
					t.Errorf("output contains %q", s)
				}
			}
			// The GPS latitude's rationals, as the input stores them.
			if lat := rationals(order, 36, 1, 9, 1, 5324, 100); bytes.Contains(res.Data, lat) {
				t.Error("output contains the GPS latitude")
			}
		})
	}
}

func TestOrientation(t *testing.T) {
	const r, g, b, w = "red", "green", "blue", "white"
	// The stored image is 64×32: red top left, green top right, blue bottom
	// left, white bottom right. The corners are where a viewer shows them.
	tests := []struct {
		o              uint16
		order          binary.ByteOrder
		width, height  int
		tl, tr, bl, br string
	}{
		{1, binary.LittleEndian, 64, 32, r, g, b, w},
		{2, binary.BigEndian, 64, 32, g, r, w, b},
		{3, binary.LittleEndian, 64, 32, w, b, g, r},
		{4, binary.BigEndian, 64, 32, b, w, r, g},
		{5, binary.LittleEndian, 32, 64, r, b, g, w},
		{6, binary.LittleEndian, 32, 64, b, r, w, g},
		{6, binary.BigEndian, 32, 64, b, r, w, g},
		{7, binary.BigEndian, 32, 64, w, g, b, r},
		{8, binary.LittleEndian, 32, 64, g, w, r, b},
		{9, binary.LittleEndian, 64, 32, r, g, b, w}, // not an orientation: as stored
	}
	for _, tt := range tests {
		t.Run(strings.Join([]string{string(rune('0' + tt.o)), tt.order.String()}, "-"), func(t *testing.T) {
			in := withSegments(encodeJPEG(t, quadrants(64, 32), 95), exifWith(tt.order, tt.o, true))
			res, err := Process(in, limit)
			if err != nil {
				t.Fatal(err)
			}
			img := decode(t, res)
			if res.Width != tt.width || res.Height != tt.height {
				t.Fatalf("size %d×%d, want %d×%d", res.Width, res.Height, tt.width, tt.height)
			}
			at := func(x, y int) string { return colorName(img.At(x, y)) }
			got := [4]string{at(4, 4), at(res.Width-5, 4), at(4, res.Height-5), at(res.Width-5, res.Height-5)}
			if want := [4]string{tt.tl, tt.tr, tt.bl, tt.br}; got != want {
				t.Errorf("corners (TL TR BL BR) %v, want %v", got, want)
			}
		})
	}
}

// colorName names the nearest of the quadrants' colors.
func colorName(c color.Color) string {
	r, g, b, _ := c.RGBA()
	r, g, b = r>>8, g>>8, b>>8
	switch {
	case r > 200 && g > 200 && b > 200:
		return "white"
	case r > 200 && g < 60 && b < 60:
		return "red"
	case g > 200 && r < 60 && b < 60:
		return "green"
	case b > 200 && r < 60 && g < 60:
		return "blue"
	}
	return "other"
}

func TestResize(t *testing.T) {
	tests := []struct {
		name          string
		w, h          int
		o             uint16
		width, height int
	}{
		{"landscape 12MP-ish", 4000, 3000, 1, 2048, 1536},
		{"portrait", 3000, 4000, 1, 1536, 2048},
		{"landscape turned by orientation 6", 4000, 3000, 6, 1536, 2048},
		{"panorama", 8000, 1000, 1, 2048, 256},
		{"small, untouched", 640, 480, 1, 640, 480},
		{"long side exactly MaxSide", 2048, 100, 1, 2048, 100},
		{"one pixel", 1, 1, 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := withSegments(encodeJPEG(t, quadrants(tt.w, tt.h), 75), exifWith(binary.LittleEndian, tt.o, false))
			res, err := Process(in, limit)
			if err != nil {
				t.Fatal(err)
			}
			decode(t, res)
			if res.Width != tt.width || res.Height != tt.height {
				t.Errorf("size %d×%d, want %d×%d", res.Width, res.Height, tt.width, tt.height)
			}
		})
	}
}

func TestTooManyPixels(t *testing.T) {
	var pngBomb []byte
	pngBomb = append(pngBomb, "\x89PNG\r\n\x1a\n"...)
	// IHDR: 100000×100000, 8-bit RGBA; then an IDAT that is not there.
	pngBomb = append(pngBomb, pngChunk("IHDR", []byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0, 8, 6, 0, 0, 0})...)

	// SOF0 65000×65000, 3 components; then the start of a scan.
	jpegBomb := []byte{0xff, 0xd8}
	jpegBomb = append(jpegBomb, segment(0xc0, []byte{8, 0xfd, 0xe8, 0xfd, 0xe8, 3, 1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0})...)
	jpegBomb = append(jpegBomb, segment(0xda, []byte{3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0})...)

	// VP8X canvas 16384×16384 (each side stored minus one, in 24 bits).
	webpBomb := []byte("RIFF\x16\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00\xff\x3f\x00\xff\x3f\x00")

	// Logical screen 65535×65535 and nothing else.
	gifBomb := []byte("GIF89a\xff\xff\xff\xff\x00\x00\x00")

	tests := []struct {
		name string
		data []byte
		size string
	}{
		{"PNG", pngBomb, "100000 × 100000"},
		{"JPEG", jpegBomb, "65000 × 65000"},
		{"WebP", webpBomb, "16384 × 16384"},
		{"GIF", gifBomb, "65535 × 65535"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Process(tt.data, limit)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrTooManyPixels) {
				t.Fatalf("err = %v, want ErrTooManyPixels", err)
			}
			if !strings.Contains(err.Error(), tt.size) {
				t.Errorf("error %q does not say the declared size %s", err, tt.size)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("refusing it allocated %d bytes", n)
			}
		})
	}
}

func TestRefused(t *testing.T) {
	small := encodeJPEG(t, noise(200, 200), 90)
	huge := make([]byte, MaxInputBytes+1)
	copy(huge, small)
	tests := []struct {
		name     string
		data     []byte
		maxBytes int
		want     error
		says     string
	}{
		{"empty", nil, limit, ErrUnknownType, "JPEG, PNG, GIF or WebP"},
		{"text", []byte("hello, this is a text file\n"), limit, ErrUnknownType, "not a photo"},
		{"PDF", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"), limit, ErrUnknownType, "not a photo"},
		{"HEIC", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic\x00\x00\x00\x00meta"), limit, ErrUnknownType, "HEIC photos are not supported"},
		{"HEIF mif1 with heic", []byte("\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00mif1heic"), limit, ErrUnknownType, "Most Compatible"},
		{"AVIF", []byte("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf"), limit, ErrUnknownType, "JPEG, PNG, GIF or WebP"},
		{"MP4 video", []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2"), limit, ErrUnknownType, "JPEG, PNG, GIF or WebP"},
		{"truncated JPEG scan", small[:len(small)/2], limit, ErrUndecodable, "damaged or incomplete"},
		{"truncated JPEG header", small[:20], limit, ErrUndecodable, "damaged or incomplete"},
		{"PNG signature only", []byte("\x89PNG\r\n\x1a\n"), limit, ErrUndecodable, "PNG image could not be read"},
		{"over MaxInputBytes", huge, limit, ErrTooLarge, "up to 20 MB"},
		{"maxBytes too small", small, 500, ErrTooLarge, "over the site's limit of 1 kB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Process(tt.data, tt.maxBytes)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %q does not say %q", err, tt.says)
			}
			if res.Data != nil {
				t.Errorf("Result has %d bytes with an error", len(res.Data))
			}
		})
	}
}

func TestLowerQualityToFit(t *testing.T) {
	in := encodeJPEG(t, noise(1000, 1000), 95)
	first, err := Process(in, len(in)*2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Process(in, len(first.Data)-1)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Data) >= len(first.Data) {
		t.Errorf("with a bound under the first JPEG's %d bytes it is %d bytes", len(first.Data), len(res.Data))
	}
	decode(t, res)
}

func TestTransparency(t *testing.T) {
	half := image.NewNRGBA(image.Rect(0, 0, 100, 50))
	for y := range 50 {
		for x := range 100 {
			half.SetNRGBA(x, y, color.NRGBA{200, 30, 30, uint8(255 * (x / 50))}) // left half transparent
		}
	}
	full := image.NewNRGBA(image.Rect(0, 0, 100, 50))
	for i := range full.Pix {
		full.Pix[i] = 255 // an alpha channel, all opaque
	}
	pal := image.NewPaletted(image.Rect(0, 0, 40, 30), append(color.Palette{color.Transparent}, palette.Plan9[1:]...))
	pal.SetColorIndex(39, 29, 5)
	bigAlpha := image.NewNRGBA(image.Rect(0, 0, 2100, 700))
	copy(bigAlpha.Pix, noise(2100, 700).Pix)
	for y := range 20 { // a transparent corner, larger than the scaling's reach
		for x := range 20 {
			bigAlpha.Pix[y*bigAlpha.Stride+x*4+3] = 0
		}
	}

	pngOf := func(img image.Image) []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	bigPNG := pngOf(bigAlpha)
	var gifData bytes.Buffer
	if err := gif.Encode(&gifData, pal, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		data          []byte
		typ           string
		width, height int
		alphaAt0      uint32 // 16-bit alpha of the top-left pixel
	}{
		{"PNG with transparency", pngOf(half), "image/png", 100, 50, 0},
		{"PNG with opaque alpha", pngOf(full), "image/jpeg", 100, 50, 0xffff},
		{"GIF with a transparent index", gifData.Bytes(), "image/png", 40, 30, 0},
		{"large PNG with transparency, scaled", bigPNG, "image/png", 2048, 683, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Process(tt.data, 20<<20)
			if err != nil {
				t.Fatal(err)
			}
			if res.Type != tt.typ {
				t.Fatalf("Type %q, want %q", res.Type, tt.typ)
			}
			if want := map[string]string{"image/jpeg": ".jpg", "image/png": ".png"}[tt.typ]; res.Ext != want {
				t.Errorf("Ext %q, want %q", res.Ext, want)
			}
			img := decode(t, res)
			if res.Width != tt.width || res.Height != tt.height {
				t.Errorf("size %d×%d, want %d×%d", res.Width, res.Height, tt.width, tt.height)
			}
			if _, _, _, a := img.At(0, 0).RGBA(); a != tt.alphaAt0 {
				t.Errorf("top-left alpha %#x, want %#x", a, tt.alphaAt0)
			}
		})
	}

	t.Run("transparent PNG over maxBytes", func(t *testing.T) {
		_, err := Process(bigPNG, limit)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "transparent") {
			t.Fatalf("err = %v, want ErrTooLarge saying why it is a PNG", err)
		}
	})
}

// TestWebP decodes two images of golang.org/x/image's test data (see
// testdata/README.md): one lossy and opaque, one lossless with alpha.
func TestWebP(t *testing.T) {
	tests := []struct {
		file          string
		typ           string
		width, height int
	}{
		{"blue-purple-pink.lossy.webp", "image/jpeg", 150, 100},
		{"gopher-doc.with-alpha.lossless.webp", "image/png", 75, 100},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Process(data, limit)
			if err != nil {
				t.Fatal(err)
			}
			if res.Type != tt.typ {
				t.Errorf("Type %q, want %q", res.Type, tt.typ)
			}
			decode(t, res)
			if res.Width != tt.width || res.Height != tt.height {
				t.Errorf("size %d×%d, want %d×%d", res.Width, res.Height, tt.width, tt.height)
			}
		})
	}
}

func TestExifOrientation(t *testing.T) {
	le := binary.LittleEndian
	jpg := []byte{0xff, 0xd8, 0xff, 0xd9}
	good := exifWith(le, 6, true)
	tiffOf := func(b []byte) []byte { return withSegments(jpg, segment(0xe1, append([]byte("Exif\x00\x00"), b...))) }
	tests := []struct {
		name string
		data []byte
		want int
	}{
		{"orientation 6", withSegments(jpg, good), 6},
		{"big endian 8", withSegments(jpg, exifWith(binary.BigEndian, 8, false)), 8},
		{"after fill bytes and another APP", withSegments(jpg, []byte{0xff, 0xff}, segment(0xe0, []byte("JFIF\x00")), good), 6},
		{"Exif after SOS is not read", append([]byte{0xff, 0xd8}, append(segment(0xda, []byte{0}), good...)...), 1},
		{"no Exif", jpg, 1},
		{"not a JPEG", good, 1},
		{"segment longer than the file", withSegments(jpg, good)[:len(good)-3], 1},
		{"segment length 0", withSegments(jpg, []byte{0xff, 0xe1, 0, 0}), 1},
		{"TIFF truncated", tiffOf([]byte("II*\x00\x08\x00")), 1},
		{"bad byte order", tiffOf([]byte("IM*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00\x06\x00\x00\x00")), 1},
		{"IFD offset past the end", tiffOf([]byte("II*\x00\xff\xff\xff\xff\x00\x00")), 1},
		{"entry count past the end", tiffOf([]byte("II*\x00\x08\x00\x00\x00\xff\xff\x12\x01\x03\x00")), 1},
		{"wrong type", tiffOf([]byte("II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x04\x00\x01\x00\x00\x00\x06\x00\x00\x00")), 1},
		{"count 2", tiffOf([]byte("II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x02\x00\x00\x00\x06\x00\x06\x00")), 1},
		{"value 0", tiffOf([]byte("II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00\x00\x00\x00\x00")), 1},
		{"value 3", tiffOf([]byte("II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00\x03\x00\x00\x00")), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exifOrientation(tt.data); got != tt.want {
				t.Errorf("exifOrientation = %d, want %d", got, tt.want)
			}
		})
	}
}

// FuzzProcess: any input is either refused with one of the sentinel errors
// or gives a photo that decodes, of the size Result says, within MaxSide and
// maxBytes. Seeds are small so each run stays quick.
func FuzzProcess(f *testing.F) {
	le, be := binary.LittleEndian, binary.BigEndian
	small := encodeJPEG(f, quadrants(16, 8), 80)
	f.Add(withSegments(small, exifWith(le, 6, true)))
	f.Add(withSegments(small, exifWith(be, 3, true)))
	f.Add(small[:len(small)/2])
	var p bytes.Buffer
	if err := png.Encode(&p, image.NewNRGBA(image.Rect(0, 0, 3, 2))); err != nil {
		f.Fatal(err)
	}
	f.Add(p.Bytes())
	var g bytes.Buffer
	if err := gif.Encode(&g, image.NewPaletted(image.Rect(0, 0, 3, 2), palette.Plan9), nil); err != nil {
		f.Fatal(err)
	}
	f.Add(g.Bytes())
	w, err := os.ReadFile("testdata/gopher-doc.with-alpha.lossless.webp")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(w)
	f.Add([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const maxBytes = 200_000
		res, err := Process(data, maxBytes)
		if err != nil {
			for _, s := range []error{ErrTooLarge, ErrUnknownType, ErrTooManyPixels, ErrTooMuchMemory, ErrUndecodable} {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("error %v is none of the sentinels", err)
		}
		if len(res.Data) > maxBytes {
			t.Fatalf("output of %d bytes over maxBytes", len(res.Data))
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(res.Data))
		if err != nil {
			t.Fatalf("output does not decode: %v", err)
		}
		if cfg.Width != res.Width || cfg.Height != res.Height || max(cfg.Width, cfg.Height) > MaxSide || min(cfg.Width, cfg.Height) < 1 {
			t.Fatalf("output is %d×%d, Result says %d×%d", cfg.Width, cfg.Height, res.Width, res.Height)
		}
		if want := map[string]string{"jpeg": "image/jpeg", "png": "image/png"}[format]; res.Type != want {
			t.Fatalf("output is %s, Type %q", format, res.Type)
		}
	})
}

// BenchmarkProcess12MP is a phone's usual photo: 4032×3024 with orientation
// 6, scaled to 2048×1536 and turned.
func BenchmarkProcess12MP(b *testing.B) {
	in := withSegments(encodeJPEG(b, noise(4032, 3024), 90), exifWith(binary.LittleEndian, 6, true))
	b.SetBytes(int64(len(in)))
	var res Result
	for b.Loop() {
		var err error
		if res, err = Process(in, limit); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(res.Data)), "out-bytes")
}

// BenchmarkScale compares the two kernels the package could use on the
// 12 MP decoded photo (what scale does, with the kernel as a parameter).
func BenchmarkScale(b *testing.B) {
	src, err := jpeg.Decode(bytes.NewReader(encodeJPEG(b, noise(4032, 3024), 90)))
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []struct {
		name string
		s    draw.Scaler
	}{{"ApproxBiLinear", draw.ApproxBiLinear}, {"CatmullRom", draw.CatmullRom}} {
		b.Run(k.name, func(b *testing.B) {
			dst := image.NewRGBA(image.Rect(0, 0, 2048, 1536))
			for b.Loop() {
				k.s.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
			}
		})
	}
}
