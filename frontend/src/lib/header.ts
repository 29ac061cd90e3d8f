/** Path fragments of the season pages, which show no header (SPEC.md section 2). */
const headerlessFragments = ['reefscape', 'crescendo', 'rebuilt'] as const;

/** Reports whether the header is shown on pathname. */
export function headerVisible(pathname: string): boolean {
  return !headerlessFragments.some((fragment) => pathname.includes(fragment));
}

/** Reports whether the header link to `to` is the current page; Home only on exactly '/'. */
export function linkIsCurrent(to: string, pathname: string): boolean {
  if (to === '/') return pathname === '/';
  return pathname === to || pathname.startsWith(`${to}/`);
}
