import { describe, expect, it } from 'vitest';
import { headerVisible, linkIsCurrent } from './header';

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

describe('linkIsCurrent', () => {
  it.each([
    ['/', '/', true],
    ['/', '/news', false],
    ['/news', '/news', true],
    ['/news', '/news/kickoff', true],
    ['/news', '/newsletter', false],
    ['/about', '/news', false],
  ])('link %s on %s → %s', (to, path, want) => {
    expect(linkIsCurrent(to, path)).toBe(want);
  });
});
