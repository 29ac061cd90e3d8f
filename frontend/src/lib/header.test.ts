import { describe, expect, it } from 'vitest';
import { headerVisible } from './header';

describe('headerVisible', () => {
  it.each([
    ['/', true],
    ['/news', true],
    ['/news/reefscape-recap', false],
    ['/reefscape', false],
    ['/crescendo', false],
    ['/rebuilt', false],
    ['/whattimeisit', true],
  ])('%s → %s', (path, want) => {
    expect(headerVisible(path)).toBe(want);
  });
});
