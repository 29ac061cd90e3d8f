/** Path fragments of the season pages, which show no header (SPEC.md section 2). */
const headerlessFragments = ['reefscape', 'crescendo', 'rebuilt'] as const;

/** Reports whether the header is shown on pathname. */
export function headerVisible(pathname: string): boolean {
  return !headerlessFragments.some((fragment) => pathname.includes(fragment));
}
