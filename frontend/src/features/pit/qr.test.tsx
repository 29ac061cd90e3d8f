import { cleanup, render, screen } from '@testing-library/react';
import { encode } from 'uqr';
import { afterEach, describe, expect, it } from 'vitest';
import { PitQr, qrPath } from './qr';

/** The dark modules a path draws, read back from its runs. */
function modulesOf(d: string, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y, w] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let i = 0; i < Number(w); i++) grid[Number(y)][Number(x) + i] = true;
  }
  return grid;
}

describe('qrPath', () => {
  it('draws exactly the dark modules of the code, with a quiet zone', () => {
    const url = 'https://robohornets.example/';
    const { d, size } = qrPath(url);
    const { data } = encode(url, { ecc: 'M', border: 2 });
    expect(size).toBe(data.length);
    expect(modulesOf(d, size)).toEqual(data);
    // The quiet zone: the first two rows and columns are light.
    expect(data[0].some(Boolean) || data[1].some(Boolean)).toBe(false);
    expect(data.every((row) => !row[0] && !row[1])).toBe(true);
  });
});

describe('PitQr', () => {
  afterEach(cleanup);
  it('is an image named by its purpose and address', () => {
    render(<PitQr url="https://robohornets.example/follow" label="Follow us live" />);
    const img = screen.getByRole('img', {
      name: 'Follow us live: https://robohornets.example/follow',
    });
    expect(img.tagName.toLowerCase()).toBe('svg');
    expect(img.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h\d+/);
  });
});
