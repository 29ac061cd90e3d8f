package photo

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/color/palette"
	"image/gif"
	"image/png"
	"os"
	"runtime"
	"strings"
	"testing"
)

// jpegHeader returns the start of a JPEG as an encoder writes it, up to
// its first scan: a frame header (marker sof: 0xc0 baseline, 0xc2
// progressive) of w×h with a component for each sampling factor (0x22:
// 2×2, 0x11: 1×1), then the scan's header (for a progressive JPEG, the
// first DC scan of every component, as libjpeg writes it). Nothing more
// is needed for a header to declare its size and form, and for Go's
// decoder to allocate the whole image before it finds the data missing.
func jpegHeader(sof byte, w, h int, sampling ...byte) []byte {
	frame := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(len(sampling))}
	scan := []byte{byte(len(sampling))}
	for i, hv := range sampling {
		frame = append(frame, byte(i+1), hv, 0)
		scan = append(scan, byte(i+1), 0)
	}
	if sof == 0xc2 {
		scan = append(scan, 0, 0, 1) // Ss 0, Se 0, Ah 0, Al 1
	} else {
		scan = append(scan, 0, 63, 0)
	}
	out := append([]byte{0xff, 0xd8}, segment(sof, frame)...)
	return append(out, segment(0xda, scan)...)
}

// pngHeader returns a PNG signature and IHDR of w×h, bit depth, colour
// type and interlace method, and, when trns, a tRNS chunk.
func pngHeader(w, h int, depth, colour, interlace byte, trns bool) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, depth, colour, 0, 0, interlace)
	out := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
	if trns {
		out = append(out, pngChunk("tRNS", []byte{0, 0})...)
	}
	return append(out, pngChunk("IDAT", nil)...)
}

// webpLossless returns a RIFF WebP with a VP8L chunk of size bytes that
// starts with the header of a w×h image.
func webpLossless(w, h int, size int) []byte {
	out := []byte("RIFF")
	out = binary.LittleEndian.AppendUint32(out, uint32(4+8+size))
	out = append(out, "WEBPVP8L"...)
	out = binary.LittleEndian.AppendUint32(out, uint32(size))
	out = append(out, 0x2f)
	out = binary.LittleEndian.AppendUint32(out, uint32(w-1)|uint32(h-1)<<14)
	return append(out, make([]byte, size-5)...)
}

// TestTooMuchMemory: a photo whose header says it takes more memory than
// MaxDecodeBytes is refused with a sentence saying what it is and what
// to do, before anything is decoded. The first is the issue's: a small
// file that Go's decoder would take 770 MB to read.
func TestTooMuchMemory(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		says []string
	}{
		{"progressive 4:4:4 JPEG at the pixel limit", jpegHeader(0xc2, 8192, 6144, 0x11, 0x11, 0x11),
			[]string{"a progressive JPEG with full colour detail (4:4:4) of 8192 × 6144 pixels", "735.9 MB", "up to 128 MB", "save it as a regular (baseline) JPEG"}},
		{"progressive 4:2:0 JPEG of 24 MP", jpegHeader(0xc2, 6000, 4000, 0x22, 0x11, 0x11),
			[]string{"a progressive JPEG of 6000 × 4000 pixels", "baseline"}},
		{"baseline 4:4:4 JPEG at the pixel limit", jpegHeader(0xc0, 8192, 6144, 0x11, 0x11, 0x11),
			[]string{"a JPEG with full colour detail (4:4:4) of 8192 × 6144 pixels", "smaller size"}},
		{"16-bit PNG", pngHeader(6000, 4000, 16, 6, 0, false),
			[]string{"a 16-bit PNG of 6000 × 4000 pixels", "197.8 MB", "8-bit PNG"}},
		{"interlaced PNG", pngHeader(5000, 4000, 8, 6, 1, false),
			[]string{"a PNG (interlaced) of 5000 × 4000 pixels", "as a JPEG"}},
		{"gray PNG with a transparent colour", pngHeader(8000, 6000, 8, 0, 0, true),
			[]string{"a PNG of 8000 × 6000 pixels"}},
		{"lossless WebP", webpLossless(6000, 4000, 1000),
			[]string{"a lossless WebP of 6000 × 4000 pixels", "as a JPEG or a PNG"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Process(tt.data, limit)
			runtime.ReadMemStats(&after)
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("refusing it allocated %d bytes", n)
			}
			if !errors.Is(err, ErrTooMuchMemory) {
				t.Fatalf("err = %v, want ErrTooMuchMemory", err)
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
}

// TestMemoryEstimate: the estimate of each form, from its header alone,
// against the formulas of memory.go worked by hand. maxBytes is limit
// (1,000,000): 2,000,000 for the output buffer and its copy, and
// decoderSlack (2,097,152) in each. A 2048×1536 RGBA picture (the scaled
// or turned copy of a 4:3 photo) is 12,582,912.
func TestMemoryEstimate(t *testing.T) {
	tests := []struct {
		name        string
		data        []byte
		w, h        int
		orientation int
		want        int64
		accepted    bool
	}{
		// 252×189 MCUs of 16×16: Y 4032×3024 = 12,192,768, Cb and Cr
		// 2016×1512 = 3,048,192 each; scaled.
		{"12 MP phone photo, baseline 4:2:0", jpegHeader(0xc0, 4032, 3024, 0x22, 0x11, 0x11), 4032, 3024, 1,
			18_289_152 + 12_582_912 + 4_097_152, true},
		// The same, turned: one more 2048×1536 RGBA.
		{"12 MP phone photo, turned", jpegHeader(0xc0, 4032, 3024, 0x22, 0x11, 0x11), 4032, 3024, 6,
			18_289_152 + 2*12_582_912 + 4_097_152, true},
		// 512×384 MCUs, 6 blocks each: 1,179,648 blocks of 64 bytes.
		{"largest baseline 4:2:0", jpegHeader(0xc0, 8192, 6144, 0x22, 0x11, 0x11), 8192, 6144, 1,
			75_497_472 + 12_582_912 + 4_097_152, true},
		// 1024×768 MCUs of 8×8, 3 blocks each: 2,359,296 blocks of 64
		// bytes of samples and 256 of coefficients.
		{"largest progressive 4:4:4", jpegHeader(0xc2, 8192, 6144, 0x11, 0x11, 0x11), 8192, 6144, 1,
			150_994_944 + 603_979_776 + 12_582_912 + 4_097_152, false},
		// 4:4:4 of 2400×1800 (300×225 MCUs): 202,500 blocks; scaled to
		// 2048×1536.
		{"progressive 4:4:4 of 4 MP", jpegHeader(0xc2, 2400, 1800, 0x11, 0x11, 0x11), 2400, 1800, 1,
			12_960_000 + 51_840_000 + 12_582_912 + 4_097_152, true},
		// Gray, 1 component, padded to 8: 100×75 blocks; not scaled, turned:
		// two 800×600 RGBA pictures.
		{"gray JPEG, turned", jpegHeader(0xc0, 800, 600, 0x22), 800, 600, 8,
			480_000 + 2*1_920_000 + 4_097_152, true},
		// RGB components (R, G, B): converted to RGBA besides.
		{"RGB JPEG", append(jpegHeader(0xc0, 800, 600, 0x11, 0x11, 0x11)[:2], segment(0xc0, []byte{8, 2, 0x58, 3, 0x20, 3, 'R', 0x11, 0, 'G', 0x11, 0, 'B', 0x11, 0})...), 800, 600, 1,
			1_440_000 + 1_920_000 + 4_097_152, true},
		// 8 bytes a pixel, two rows of 8×6000+1; scaled to 2048×1365.
		{"16-bit PNG", pngHeader(6000, 4000, 16, 6, 0, false), 6000, 4000, 1,
			192_000_000 + 96_002 + 11_182_080 + 4_097_152, false},
		{"8-bit RGBA PNG", pngHeader(4000, 3000, 8, 6, 0, false), 4000, 3000, 1,
			48_000_000 + 64_002 + 12_582_912 + 4_097_152, true},
		// The photo of cmd/photoload: the largest it found under the budget.
		{"8-bit RGB PNG of 29 MP", pngHeader(6600, 4400, 8, 2, 0, false), 6600, 4400, 1,
			116_160_000 + 105_602 + 11_182_080 + 4_097_152, true},
		// Interlaced: the passes hold as many pixels again.
		{"interlaced 8-bit RGB PNG", pngHeader(2000, 1500, 8, 2, 1, false), 2000, 1500, 1,
			24_000_000 + 32_002 + 4_097_152, true},
		{"gray PNG", pngHeader(2000, 1500, 8, 0, 0, false), 2000, 1500, 1,
			3_000_000 + 32_002 + 4_097_152, true},
		{"gray PNG with tRNS", pngHeader(2000, 1500, 8, 0, 0, true), 2000, 1500, 1,
			12_000_000 + 32_002 + 4_097_152, true},
		{"paletted PNG", pngHeader(2000, 1500, 8, 3, 0, false), 2000, 1500, 1,
			3_000_000 + 32_002 + 4_097_152, true},
		// Two bytes a pixel of the screen, whatever its frames.
		{"GIF at the pixel limit", []byte("GIF89a\x00\x20\x00\x18\x00\x00\x00"), 8192, 6144, 1,
			100_663_296 + 12_582_912 + 4_097_152, true},
		// 6 bytes a pixel, 3 sub-images of 250×250 pixels of 4 bytes, the
		// groups' 6,968,000 and the nodes of a 1,000-byte chunk.
		{"lossless WebP", webpLossless(1000, 1000, 1000), 1000, 1000, 1,
			6_000_000 + 750_000 + 6_968_000 + 288_000 + 4_097_152, true},
		// A large chunk: the nodes of 2,600 groups of the largest trees.
		{"lossless WebP, large chunk", webpLossless(1000, 1000, 2_000_000), 1000, 1000, 1,
			6_000_000 + 750_000 + 6_968_000 + 130_353_600 + 4_097_152, false},
		// 10×7 macroblocks: 384 bytes of samples and 4 of filter each, and
		// the 2,430 bytes of the VP8 chunk.
		{"lossy WebP", mustRead(t, "testdata/blue-purple-pink.lossy.webp"), 150, 100, 1,
			27_160 + 2_430 + 4_097_152, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := sniff(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			est, err := estimateMemory(f, tt.data, tt.w, tt.h, tt.orientation, limit)
			if err != nil {
				t.Fatal(err)
			}
			if est.bytes != tt.want {
				t.Errorf("estimate %d, want %d", est.bytes, tt.want)
			}
			if got := est.bytes <= MaxDecodeBytes; got != tt.accepted {
				t.Errorf("within MaxDecodeBytes: %v, want %v", got, tt.accepted)
			}
		})
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestMemoryEstimateBoundsAllocation: on real images of each form, the
// estimate is at least every byte Process allocates (runtime.MemStats'
// TotalAlloc, garbage included), and for a 12 MP phone photo, where the
// pixels outweigh the fixed slack, within 10 % of it.
func TestMemoryEstimateBoundsAllocation(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's own allocations are counted too")
	}
	pngOf := func(img image.Image) []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	rgba := noise(2100, 700)
	rgba.Pix[3] = 0 // one transparent pixel: kept as a PNG
	pal := image.NewPaletted(image.Rect(0, 0, 1600, 1200), palette.Plan9)
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i % 7 * 30)
	}
	var g bytes.Buffer
	if err := gif.Encode(&g, pal, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		data   []byte
		within float64 // the most estimate/allocated may be; 0: any
	}{
		{"12 MP phone photo, turned", withSegments(encodeJPEG(t, noise(4032, 3024), 90), exifWith(binary.LittleEndian, 6, false)), 1.10},
		{"progressive 4:4:4 JPEG", mustRead(t, "testdata/prog444.jpg"), 0},
		{"progressive 4:2:0 JPEG", mustRead(t, "testdata/prog420.jpg"), 0},
		{"baseline 4:4:4 JPEG", mustRead(t, "testdata/base444.jpg"), 0},
		{"interlaced PNG", mustRead(t, "testdata/adam7.png"), 0},
		{"RGBA PNG, scaled", pngOf(rgba), 0},
		{"GIF", g.Bytes(), 0},
		{"lossy WebP", mustRead(t, "testdata/blue-purple-pink.lossy.webp"), 0},
		{"lossless WebP with alpha", mustRead(t, "testdata/gopher-doc.with-alpha.lossless.webp"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := sniff(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := f.config(bytes.NewReader(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			est, err := estimateMemory(f, tt.data, cfg.Width, cfg.Height, exifOrientation(tt.data), limit)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err = Process(tt.data, limit)
			runtime.ReadMemStats(&after)
			if err != nil && !errors.Is(err, ErrTooLarge) {
				t.Fatal(err)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			if uint64(est.bytes) < alloc {
				t.Errorf("estimate %d, under the %d bytes allocated", est.bytes, alloc)
			}
			if r := float64(est.bytes) / float64(alloc); tt.within > 0 && r > tt.within {
				t.Errorf("estimate %d is %.2f times the %d bytes allocated, want at most %.2f", est.bytes, r, alloc, tt.within)
			}
		})
	}
}

// TestLimiter: a photo waits while others hold the memory it needs, stops
// waiting when its request ends, and gives the memory back however it
// ends.
func TestLimiter(t *testing.T) {
	l := NewLimiter()
	photo := encodeJPEG(t, quadrants(64, 48), 90)
	if err := l.sem.Acquire(t.Context(), MaxBytesAtOnce); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := l.Process(ctx, photo, limit)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("Process returned %v while the memory was held", err)
	default:
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	l.sem.Release(MaxBytesAtOnce)

	for _, data := range [][]byte{photo, photo[:len(photo)/2]} {
		_, _ = l.Process(t.Context(), data, limit)
		if !l.sem.TryAcquire(MaxBytesAtOnce) {
			t.Fatal("a processed photo did not give its memory back")
		}
		l.sem.Release(MaxBytesAtOnce)
	}
}
