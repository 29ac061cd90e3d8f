import type { CSSProperties } from 'react';

/**
 * Returns a React style object that sets CSS custom properties. React applies it
 * through the CSSOM, which the site's `style-src 'self'` policy allows.
 */
export function cssVars(vars: Record<`--${string}`, string | number>): CSSProperties {
  return vars as CSSProperties;
}

/** Formats milliseconds as a CSS time. */
export function ms(value: number): string {
  return `${value}ms`;
}
