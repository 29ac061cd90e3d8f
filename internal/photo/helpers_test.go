package photo

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"testing"
)

// tiffEntry is one IFD entry for buildTIFF: its value bytes are written in
// place when they fit in 4 bytes, after the IFD otherwise.
type tiffEntry struct {
	tag, typ uint16
	count    uint32
	value    []byte
}

// Types of TIFF values.
const (
	tiffASCII    = 2
	tiffShort    = 3
	tiffLong     = 4
	tiffRational = 5
)

// buildTIFF returns a TIFF structure with IFD0 of ifd0 and, when gps is not
// empty, a GPS IFD that IFD0's GPSInfo tag (0x8825) points to.
func buildTIFF(order binary.ByteOrder, ifd0, gps []tiffEntry) []byte {
	out := make([]byte, 8)
	if order == binary.LittleEndian {
		copy(out, "II*\x00")
	} else {
		copy(out, "MM\x00*")
	}
	order.PutUint32(out[4:], 8)
	if len(gps) > 0 {
		ifd0 = append(ifd0, tiffEntry{0x8825, tiffLong, 1, make([]byte, 4)})
		gpsAt := 8 + len(ifdBytes(order, ifd0, 8))
		order.PutUint32(ifd0[len(ifd0)-1].value, uint32(gpsAt))
		out = append(out, ifdBytes(order, ifd0, 8)...)
		return append(out, ifdBytes(order, gps, gpsAt)...)
	}
	return append(out, ifdBytes(order, ifd0, 8)...)
}

// ifdBytes returns one IFD written at offset at of the TIFF structure,
// followed by the values that do not fit in their entries.
func ifdBytes(order binary.ByteOrder, entries []tiffEntry, at int) []byte {
	head := make([]byte, 2+12*len(entries)+4)
	order.PutUint16(head, uint16(len(entries)))
	var extra []byte
	for i, e := range entries {
		b := head[2+12*i:]
		order.PutUint16(b[0:], e.tag)
		order.PutUint16(b[2:], e.typ)
		order.PutUint32(b[4:], e.count)
		if len(e.value) <= 4 {
			copy(b[8:12], e.value)
			continue
		}
		order.PutUint32(b[8:], uint32(at+len(head)+len(extra)))
		extra = append(extra, e.value...)
	}
	return append(head, extra...)
}

func short(order binary.ByteOrder, v uint16) []byte {
	b := make([]byte, 2)
	order.PutUint16(b, v)
	return b
}

func rationals(order binary.ByteOrder, v ...uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		order.PutUint32(b[4*i:], x)
	}
	return b
}

// exifWith returns an APP1 Exif segment with the orientation o and, when
// withGPS, the camera's make and a GPS position.
func exifWith(order binary.ByteOrder, o uint16, withGPS bool) []byte {
	ifd0 := []tiffEntry{{0x0112, tiffShort, 1, short(order, o)}}
	var gps []tiffEntry
	if withGPS {
		ifd0 = append([]tiffEntry{{0x010f, tiffASCII, 10, []byte("RoboPhone\x00")}}, ifd0...)
		gps = []tiffEntry{
			{0x0001, tiffASCII, 2, []byte("N\x00")},
			{0x0002, tiffRational, 3, rationals(order, 36, 1, 9, 1, 5324, 100)}, // 36°9'53.24"
			{0x0003, tiffASCII, 2, []byte("W\x00")},
			{0x0004, tiffRational, 3, rationals(order, 95, 1, 59, 1, 1234, 100)}, // 95°59'12.34"
		}
	}
	return segment(0xe1, append([]byte("Exif\x00\x00"), buildTIFF(order, ifd0, gps)...))
}

// segment returns a JPEG marker segment.
func segment(marker byte, payload []byte) []byte {
	n := len(payload) + 2
	return append([]byte{0xff, marker, byte(n >> 8), byte(n)}, payload...)
}

// withSegments inserts segments right after the SOI marker of a JPEG, where
// cameras put theirs.
func withSegments(jpg []byte, segs ...[]byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	for _, s := range segs {
		out = append(out, s...)
	}
	return append(out, jpg[2:]...)
}

func encodeJPEG(t testing.TB, img image.Image, quality int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// quadrants returns a w×h image whose four quarters are red (top left),
// green (top right), blue (bottom left) and white (bottom right).
func quadrants(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := [2][2]color.RGBA{
				{{255, 0, 0, 255}, {0, 255, 0, 255}},
				{{0, 0, 255, 255}, {255, 255, 255, 255}},
			}[y*2/h][x*2/w]
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// noise returns a w×h photo-like image that JPEG cannot compress much:
// a gradient with random grain.
func noise(w, h int) *image.RGBA {
	r := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			g := uint8(r.IntN(64))
			img.SetRGBA(x, y, color.RGBA{uint8(x*200/w) + g, uint8(y*200/h) + g, 128 + g, 255})
		}
	}
	return img
}

// pngChunk returns a PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

// jpegMarkers returns the markers of a JPEG in order, the entropy-coded
// data skipped: the test's own reading, apart from exifTIFF.
func jpegMarkers(t *testing.T, data []byte) []byte {
	t.Helper()
	var markers []byte
	i := 0
	for i < len(data) {
		if data[i] != 0xff {
			t.Fatalf("byte %d is %#x, not a marker", i, data[i])
		}
		for i < len(data) && data[i] == 0xff {
			i++
		}
		if i >= len(data) {
			t.Fatal("JPEG ends in fill bytes")
		}
		m := data[i]
		i++
		markers = append(markers, m)
		switch {
		case m == 0xd8 || m >= 0xd0 && m <= 0xd7:
			continue
		case m == 0xd9:
			return markers
		}
		if i+2 > len(data) {
			t.Fatalf("marker %#x has no length", m)
		}
		i += int(data[i])<<8 | int(data[i+1])
		if m == 0xda { // skip the scan to the next marker that is not 0xff00 or RSTn
			for i+1 < len(data) && (data[i] != 0xff || data[i+1] == 0 || data[i+1] >= 0xd0 && data[i+1] <= 0xd7) {
				i++
			}
		}
	}
	t.Fatal("JPEG has no EOI")
	return nil
}
