import { useMemo } from 'react';
import { encode } from 'uqr';

/** The SVG path of a QR code's dark modules, one unit square each, and the code's width. */
export function qrPath(text: string): { d: string; size: number } {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  data.forEach((row, y) => {
    // One horizontal run of dark modules per subpath keeps the path short.
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      let end = x;
      while (end + 1 < size && row[end + 1]) end++;
      d += `M${x} ${y}h${end - x + 1}v1h${-(end - x + 1)}z`;
      x = end;
    }
  });
  return { d, size };
}

interface PitQrProps {
  /** The address the code holds. */
  url: string;
  /** What the code is for, for screen readers and as its caption. */
  label: string;
  className?: string;
}

/** A QR code of url drawn as SVG: dark modules on a white quiet zone, crisp at any size. */
export function PitQr({ url, label, className }: PitQrProps) {
  const { d, size } = useMemo(() => qrPath(url), [url]);
  return (
    <svg
      className={className}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={`${label}: ${url}`}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
