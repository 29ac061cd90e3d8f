import type { Routes } from '../../gen/spec.gen';

/**
 * The season pages, which show no header (docs/SPEC.md section 2); pages of the
 * route table (internal/spec/routes.go), so a path it does not have fails
 * the type check.
 */
export const headerlessPages = [
  '/reefscape',
  '/crescendo',
  '/rebuilt',
] as const satisfies readonly (keyof typeof Routes)[];

/** Path fragments of the season pages: a path that holds one shows no header. */
const headerlessFragments = headerlessPages.map((path) => path.slice(1));

/** Reports whether the header is shown on pathname. */
export function headerVisible(pathname: string): boolean {
  return !headerlessFragments.some((fragment) => pathname.includes(fragment));
}
