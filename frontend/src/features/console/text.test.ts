import { describe, expect, it } from 'vitest';
import { insertAtCursor } from './text';

describe('insertAtCursor', () => {
  const img = '![Photo](/media/abc.jpg)';
  it.for([
    { name: 'into nothing', text: '', start: 0, end: 0, want: `${img}\n`, cursor: img.length + 1 },
    { name: 'at the end of a line', text: 'Hello', start: 5, end: 5, want: `Hello\n\n${img}\n` },
    {
      name: 'mid-paragraph',
      text: 'Hello world',
      start: 5,
      end: 5,
      want: `Hello\n\n${img}\n\n world`,
    },
    { name: 'over a selection', text: 'A XX B', start: 2, end: 4, want: `A \n\n${img}\n\n B` },
    { name: 'after a blank line', text: 'A\n\nB', start: 3, end: 3, want: `A\n\n${img}\n\nB` },
    { name: 'past the end', text: 'A', start: 9, end: 9, want: `A\n\n${img}\n` },
  ])('$name', ({ text, start, end, want, cursor }) => {
    const got = insertAtCursor(text, start, end, img);
    expect(got.text).toBe(want);
    if (cursor !== undefined) expect(got.cursor).toBe(cursor);
  });
});
