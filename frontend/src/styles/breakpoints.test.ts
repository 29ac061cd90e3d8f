/// <reference types="node" />
// Media queries cannot read spec.gen.ts, so this checks the CSS against it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MenuCollapseBelow, NarrowLayoutMaxWidth, WideLayoutMinWidth } from '../lib/spec.gen';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

const sheets = {
  global: read('./global.css'),
  header: read('../components/header.css'),
  footer: read('../components/footer.css'),
  banner: read('../components/banner.css'),
  slideshow: read('../components/slideshow.css'),
  social: read('../components/social-links.css'),
  pages: read('../routes/pages.css'),
};

/** Every width a media query of css names, as written. */
function mediaWidths(css: string): string[] {
  return Array.from(css.matchAll(/@media[^{]*\((?:min|max)-width:\s*([\d.]+)px\)/g), (m) => m[1]);
}

describe('CSS breakpoints', () => {
  const allowed = [
    String(NarrowLayoutMaxWidth),
    String(WideLayoutMinWidth),
    String(MenuCollapseBelow),
    String(MenuCollapseBelow - 0.02),
    // Not the spec's: inside the narrow layout, phones under 380 px (the menu button
    // drops its word, the social links go two by two) ...
    '379.98',
    // ... and inside the wide layout, the row of four facts once each has room.
    '900',
  ];

  it.each(Object.entries(sheets))(
    '%s uses only the spec breakpoints and the two listed here',
    (_, css) => {
      for (const width of mediaWidths(css)) expect(allowed).toContain(width);
    },
  );

  it('collapses the menu under MenuCollapseBelow', () => {
    expect(sheets.header).toContain(`(max-width: ${MenuCollapseBelow - 0.02}px)`);
  });

  it('switches between the narrow and the wide layout', () => {
    expect(sheets.pages).toContain(`(max-width: ${NarrowLayoutMaxWidth}px)`);
    expect(sheets.pages).toContain(`(min-width: ${WideLayoutMinWidth}px)`);
  });

  it.each(['header', 'banner', 'slideshow', 'social', 'global'] as const)(
    '%s turns its animations down for prefers-reduced-motion',
    (name) => {
      expect(sheets[name]).toContain('@media (prefers-reduced-motion: reduce)');
    },
  );
});
