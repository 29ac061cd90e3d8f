package photo

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// The memory a photo takes is told from its header, before anything is
// decoded, by the allocations of the decoders Process runs (Go's
// image/jpeg, image/png and image/gif, golang.org/x/image/webp; each
// formula names the code it follows) and of Process's own stages after
// decoding. Every figure is an upper bound of what those allocate; the
// tests check it against runtime.MemStats on real images.

// decoderSlack covers what every photo allocates besides its pixels:
// Huffman and quantisation tables, zlib and LZW state, the encoder's
// buffers and its Huffman tables.
const decoderSlack = 2 << 20

// memoryEstimate is what a photo takes to process, and how it is stored,
// for the sentence that refuses it.
type memoryEstimate struct {
	bytes int64
	// kind names the stored form for a person: "a progressive JPEG with
	// full colour detail (4:4:4)", "a 16-bit PNG".
	kind string
	// advice says how to save it so it takes less.
	advice string
}

// adviceSmaller is what helps with any photo: fewer pixels.
const adviceSmaller = "save it at a smaller size (for example 4000 pixels on the long side)"

// estimateMemory returns the memory Process takes on data, an image of
// format f whose header (read by f.config) declares w×h pixels, turned by
// orientation, into at most maxBytes. A header the estimate cannot read is
// an error; the decoder would refuse it too.
func estimateMemory(f *format, data []byte, w, h, orientation, maxBytes int) (memoryEstimate, error) {
	var (
		est memoryEstimate
		err error
	)
	switch f {
	case formatJPEG:
		est, err = jpegMemory(data, w, h)
	case formatPNG:
		est, err = pngMemory(data, w, h)
	case formatGIF:
		est = gifMemory(w, h)
	case formatWebP:
		est, err = webpMemory(data, w, h)
	}
	if err != nil {
		return memoryEstimate{}, err
	}
	est.bytes += afterDecode(w, h, orientation, maxBytes) + decoderSlack
	return est, nil
}

// afterDecode is what Process allocates once the image is decoded: the
// scaled copy (scale), the turned copy and, for an image that was not
// scaled, the RGBA copy orient starts from; the output buffer of
// maxBytes, and the copy of the output that Result keeps.
func afterDecode(w, h, orientation, maxBytes int) int64 {
	ow, oh := fit(w, h)
	out := 4 * int64(ow) * int64(oh) // one RGBA picture of the output's size
	n := 2 * int64(maxBytes)
	scaled := ow != w || oh != h
	if scaled {
		n += out
	}
	if orientation >= 2 && orientation <= 8 {
		if !scaled {
			n += out // orient's RGBA copy of the decoded image
		}
		n += out
	}
	return n
}

// jpegMemory follows image/jpeg (Go 1.26, reader.go and scan.go): makeImg
// allocates a Gray or YCbCr image padded to whole MCUs (8×8 blocks
// times the sampling factors), and a black plane for 4 components; a
// progressive JPEG also keeps every component's coefficients, one
// 64×int32 block per 8×8 pixels it samples (progCoeffs); then a CMYK or
// RGB JPEG is converted into a new 4-byte-per-pixel image.
func jpegMemory(data []byte, w, h int) (memoryEstimate, error) {
	sof, err := jpegFrame(data)
	if err != nil {
		return memoryEstimate{}, err
	}
	if sof.width != w || sof.height != h {
		return memoryEstimate{}, fmt.Errorf("frame of %d×%d, configuration %d×%d", sof.width, sof.height, w, h)
	}
	h0, v0 := sof.comps[0].h, sof.comps[0].v
	if len(sof.comps) == 1 {
		h0, v0 = 1, 1 // processSOF: a single component is never interleaved
	}
	mxx := int64((w + 8*h0 - 1) / (8 * h0))
	myy := int64((h + 8*v0 - 1) / (8 * v0))
	var blocks int64 // 8×8 blocks over all components
	for _, c := range sof.comps {
		if len(sof.comps) == 1 {
			c.h, c.v = 1, 1
		}
		blocks += mxx * myy * int64(c.h*c.v)
	}
	n := 64 * blocks // the samples, one byte each
	if sof.progressive {
		n += 64 * 4 * blocks // progCoeffs: 64 int32 per block
	}
	switch {
	case len(sof.comps) == 4:
		n += 4 * int64(w) * int64(h) // applyBlack's CMYK or RGBA image
	case len(sof.comps) == 3 && jpegMayBeRGB(data, sof):
		n += 4 * int64(w) * int64(h) // convertToRGB's RGBA image
	}

	est := memoryEstimate{bytes: n, kind: "a JPEG", advice: adviceSmaller}
	full := len(sof.comps) >= 3 && sof.comps[1].h == h0 && sof.comps[1].v == v0
	switch {
	case sof.progressive && full:
		est.kind = "a progressive JPEG with full colour detail (4:4:4)"
		est.advice = "save it as a regular (baseline) JPEG, or " + adviceSmaller
	case sof.progressive:
		est.kind = "a progressive JPEG"
		est.advice = "save it as a regular (baseline) JPEG, or " + adviceSmaller
	case full:
		est.kind = "a JPEG with full colour detail (4:4:4)"
	}
	return est, nil
}

// jpegComp is one component of a JPEG frame: its sampling factors.
type jpegComp struct{ id, h, v int }

// jpegSOF is the frame header that image/jpeg decodes by.
type jpegSOF struct {
	progressive   bool
	width, height int
	comps         []jpegComp
}

// jpegFrame returns the first SOF0, SOF1 or SOF2 segment of a JPEG, walking
// the markers as image/jpeg's decode does: bytes outside a segment that are
// not a marker are skipped, fill bytes (0xff) too, RSTn stand alone, and
// every other marker has a length. image/jpeg refuses a second SOF, so the
// first is the one it decodes by.
func jpegFrame(data []byte) (jpegSOF, error) {
	i := 2 // after SOI
	for {
		if i+2 > len(data) {
			return jpegSOF{}, fmt.Errorf("no frame header")
		}
		prev, marker := data[i], data[i+1]
		i += 2
		for prev != 0xff { // extraneous bytes
			if i >= len(data) {
				return jpegSOF{}, fmt.Errorf("no frame header")
			}
			prev, marker = marker, data[i]
			i++
		}
		if marker == 0 {
			continue // "\xff\x00" is extraneous data too
		}
		for marker == 0xff { // fill bytes
			if i >= len(data) {
				return jpegSOF{}, fmt.Errorf("no frame header")
			}
			marker = data[i]
			i++
		}
		switch {
		case marker == 0xd9:
			return jpegSOF{}, fmt.Errorf("image ends before its frame header")
		case marker >= 0xd0 && marker <= 0xd7:
			continue
		case marker == 0xda:
			return jpegSOF{}, fmt.Errorf("scan before the frame header")
		}
		if i+2 > len(data) {
			return jpegSOF{}, fmt.Errorf("segment %#x has no length", marker)
		}
		n := int(binary.BigEndian.Uint16(data[i:]))
		if n < 2 || i+n > len(data) {
			return jpegSOF{}, fmt.Errorf("segment %#x of %d bytes", marker, n)
		}
		seg := data[i+2 : i+n]
		i += n
		if marker != 0xc0 && marker != 0xc1 && marker != 0xc2 {
			continue
		}
		if len(seg) < 6 || len(seg) != 6+3*int(seg[5]) || seg[5] != 1 && seg[5] != 3 && seg[5] != 4 {
			return jpegSOF{}, fmt.Errorf("frame header of %d bytes", len(seg))
		}
		sof := jpegSOF{
			progressive: marker == 0xc2,
			height:      int(binary.BigEndian.Uint16(seg[1:])),
			width:       int(binary.BigEndian.Uint16(seg[3:])),
		}
		for c := range int(seg[5]) {
			hv := seg[6+3*c+1]
			comp := jpegComp{id: int(seg[6+3*c]), h: int(hv >> 4), v: int(hv & 0x0f)}
			if comp.h < 1 || comp.h > 4 || comp.v < 1 || comp.v > 4 {
				return jpegSOF{}, fmt.Errorf("sampling factors %#x", hv)
			}
			sof.comps = append(sof.comps, comp)
		}
		return sof, nil
	}
}

// jpegMayBeRGB reports whether image/jpeg may take a 3-component JPEG for
// RGB and convert it (isRGB): its components are named R, G and B, or an
// Adobe APP14 segment anywhere says transform 0. A JFIF APP0 would say
// otherwise, but image/jpeg reads a later APP0 or APP14 too, so only the
// Adobe segment is looked for, anywhere in the file: at worst this counts
// a conversion that does not happen.
func jpegMayBeRGB(data []byte, sof jpegSOF) bool {
	if sof.comps[0].id == 'R' && sof.comps[1].id == 'G' && sof.comps[2].id == 'B' {
		return true
	}
	for rest := data; ; {
		i := bytes.Index(rest, []byte("\xff\xee"))
		if i < 0 {
			return false
		}
		rest = rest[i+2:]
		// Length, "Adobe", version, flags0, flags1, then the transform:
		// processApp14Marker's 12 bytes after the length.
		if len(rest) >= 14 && bytes.HasPrefix(rest[2:], []byte("Adobe")) && rest[13] == 0 {
			return true
		}
	}
}

// pngMemory follows image/png (Go 1.26, reader.go): readImagePass allocates
// one image of the colour type's Go form (gray and truecolour become NRGBA
// when a tRNS chunk gives a transparent colour); an interlaced (Adam7)
// image allocates each of its 7 passes as well, which together hold as
// many pixels as the image. The two rows of filtering are small.
func pngMemory(data []byte, w, h int) (memoryEstimate, error) {
	// The signature (8 bytes), then IHDR: length, type, width, height,
	// bit depth, colour type, compression, filter, interlace.
	if len(data) < 8+8+13 || string(data[12:16]) != "IHDR" {
		return memoryEstimate{}, fmt.Errorf("no IHDR")
	}
	depth, colour, interlaced := data[24], data[25], data[28] == 1
	trns := pngHasTRNS(data)
	var perPixel int64
	switch colour {
	case 0: // gray
		perPixel = 1
		if depth == 16 {
			perPixel = 2
		}
		if trns {
			perPixel = 4 * perPixel
		}
	case 2: // truecolour
		perPixel = 4
		if depth == 16 {
			perPixel = 8
		}
	case 3: // paletted
		perPixel = 1
	case 4, 6: // gray with alpha, truecolour with alpha
		perPixel = 4
		if depth == 16 {
			perPixel = 8
		}
	default:
		return memoryEstimate{}, fmt.Errorf("colour type %d", colour)
	}
	n := perPixel * int64(w) * int64(h)
	est := memoryEstimate{kind: "a PNG", advice: "save it as a JPEG, or " + adviceSmaller}
	if depth == 16 {
		est.kind = "a 16-bit PNG"
		est.advice = "save it as a JPEG or an 8-bit PNG, or " + adviceSmaller
	}
	if interlaced {
		n *= 2
		est.kind += " (interlaced)"
	}
	est.bytes = n + 2*(8*int64(w)+1)
	return est, nil
}

// pngHasTRNS reports whether a tRNS chunk comes before the first IDAT,
// where image/png reads it. A chunk list it cannot follow counts as yes.
func pngHasTRNS(data []byte) bool {
	for i := 8; i+8 <= len(data); {
		n := int64(binary.BigEndian.Uint32(data[i:]))
		switch string(data[i+4 : i+8]) {
		case "tRNS":
			return true
		case "IDAT":
			return false
		}
		next := int64(i) + 12 + n
		if next > int64(len(data)) {
			return true
		}
		i = int(next)
	}
	return true
}

// gifMemory follows image/gif (Go 1.26, reader.go): Decode keeps only the
// first frame, a Paletted image (one byte a pixel) within the logical
// screen, and an interlaced frame is copied once more (uninterlace).
// The frames after the first are read and dropped.
func gifMemory(w, h int) memoryEstimate {
	return memoryEstimate{bytes: 2 * int64(w) * int64(h), kind: "a GIF", advice: adviceSmaller}
}

// The bounds of golang.org/x/image/vp8l (v0.47.0, decode.go and
// huffman.go) on its Huffman trees, which the header does not tell:
// at most vp8lMaxGroups groups of 5 trees. A group takes vp8lGroupBytes
// (5 trees with a 128-entry table each) and its trees' nodes at most
// vp8lMaxNodeBytes (2 per symbol of 8 bytes each, for the largest
// alphabets: 256+24+2048 green, 256 red, blue and alpha, 40 distance).
// Nodes also cost bits of the file: a run of 6 code lengths takes 3 bits,
// so a byte of the file gives at most 16 symbols, 256 bytes of nodes (and
// 288 with the allocator's rounding).
const (
	vp8lMaxGroups          = 2600
	vp8lGroupBytes         = 5 * (24 + 128*4)
	vp8lMaxNodeBytes       = 8 * ((2*2328 - 1) + 3*(2*256-1) + (2*40 - 1))
	vp8lNodeBytesPerByte   = 288
	vp8lHuffmanGroupsBytes = vp8lMaxGroups * vp8lGroupBytes
)

// vp8lMemory is what vp8l.Decode allocates for a w×h image whose
// bitstream is chunk bytes long: the NRGBA pixels, a packed copy of them
// before the colour-indexing transform is undone (at most half), the
// transforms' and the entropy image's sub-images (a pixel per 4×4 at
// most, 4 bytes each), and the Huffman trees.
func vp8lMemory(w, h int, chunk int64) int64 {
	px := int64(w) * int64(h)
	sub := 4 * int64((w+3)/4) * int64((h+3)/4)
	nodes := min(int64(vp8lMaxGroups)*vp8lMaxNodeBytes, vp8lNodeBytesPerByte*chunk)
	return 4*px + 2*px + 3*sub + vp8lHuffmanGroupsBytes + nodes
}

// webpMemory follows golang.org/x/image/webp (v0.47.0, decode.go): a lossy
// (VP8) image decodes into a 4:2:0 YCbCr image padded to 16×16
// macroblocks, with a copy of its compressed partitions and a filter
// parameter per macroblock; an ALPH chunk adds an alpha plane (decoded
// as a lossless image first when it is compressed); a lossless (VP8L)
// image decodes as vp8lMemory says.
func webpMemory(data []byte, w, h int) (memoryEstimate, error) {
	var n int64
	for i := 12; i+8 <= len(data); {
		id := string(data[i : i+4])
		size := int64(binary.LittleEndian.Uint32(data[i+4:]))
		body := data[i+8:]
		if size > int64(len(body)) {
			size = int64(len(body)) // the decoder stops at the end of the file
		}
		switch id {
		case "ALPH":
			n += int64(w) * int64(h)
			if size > 0 && body[0]&0x03 == 1 {
				n += vp8lMemory(w, h, size)
			}
		case "VP8 ":
			mb := int64((w+15)/16) * int64((h+15)/16)
			return memoryEstimate{bytes: n + 384*mb + 4*mb + size, kind: "a WebP", advice: adviceSmaller}, nil
		case "VP8L":
			return memoryEstimate{
				bytes:  n + vp8lMemory(w, h, size),
				kind:   "a lossless WebP",
				advice: "save it as a JPEG or a PNG, or " + adviceSmaller,
			}, nil
		}
		i += 8 + int(size) + int(size&1)
	}
	return memoryEstimate{}, fmt.Errorf("no image chunk")
}
