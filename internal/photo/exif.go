package photo

import (
	"bytes"
	"encoding/binary"
)

// exifOrientation returns the orientation tag (0x0112) of IFD0 in the first
// APP1 "Exif" segment of a JPEG, or 1 (upright) when there is none or it is
// damaged. Every read is bounds-checked: data is whatever was uploaded.
func exifOrientation(data []byte) int {
	tiff := exifTIFF(data)
	if len(tiff) < 8 {
		return 1
	}
	var order binary.ByteOrder
	switch string(tiff[:4]) {
	case "II*\x00":
		order = binary.LittleEndian
	case "MM\x00*":
		order = binary.BigEndian
	default:
		return 1
	}
	ifd := uint64(order.Uint32(tiff[4:8]))
	if ifd+2 > uint64(len(tiff)) {
		return 1
	}
	n := uint64(order.Uint16(tiff[ifd:]))
	for i := range n {
		e := ifd + 2 + 12*i
		if e+12 > uint64(len(tiff)) {
			return 1
		}
		entry := tiff[e : e+12]
		if order.Uint16(entry[0:2]) != 0x0112 {
			continue
		}
		// SHORT (type 3), one value, kept in the first two bytes of the
		// value field.
		if order.Uint16(entry[2:4]) != 3 || order.Uint32(entry[4:8]) != 1 {
			return 1
		}
		if o := int(order.Uint16(entry[8:10])); o >= 1 && o <= 8 {
			return o
		}
		return 1
	}
	return 1
}

// exifTIFF returns the TIFF structure of the first APP1 "Exif\0\0" segment
// before the image data of a JPEG, or nil.
func exifTIFF(data []byte) []byte {
	if len(data) < 2 || data[0] != 0xff || data[1] != 0xd8 {
		return nil
	}
	for i := 2; ; {
		// A marker is 0xff, any number of 0xff fill bytes, and its code.
		if i >= len(data) || data[i] != 0xff {
			return nil
		}
		for i < len(data) && data[i] == 0xff {
			i++
		}
		if i >= len(data) {
			return nil
		}
		marker := data[i]
		i++
		switch {
		case marker == 0x01 || marker >= 0xd0 && marker <= 0xd7:
			continue // TEM and RSTn stand alone
		case marker == 0xd9 || marker == 0xda:
			return nil // EOI, or SOS: the metadata comes before the image data
		}
		if i+2 > len(data) {
			return nil
		}
		n := int(data[i])<<8 | int(data[i+1])
		if n < 2 || i+n > len(data) {
			return nil
		}
		payload := data[i+2 : i+n]
		if marker == 0xe1 && bytes.HasPrefix(payload, []byte("Exif\x00\x00")) {
			return payload[6:]
		}
		i += n
	}
}
