import { describe, expect, it } from 'vitest';
import { headerlessPages, headerVisible } from './header-visible';
import { Routes } from '../../gen/spec.gen';

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

  it('hides the header on pages of the route table only', () => {
    for (const path of headerlessPages) expect(Routes).toHaveProperty([path]);
  });
});
