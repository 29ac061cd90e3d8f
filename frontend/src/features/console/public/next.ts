/** Where the console starts. */
export const consoleHome = '/admin';

/** The sign-in page, and the enrol page (its link carries the invitation in the fragment). */
export const signInPath = '/admin/signin';
export const enrolPath = '/admin/enrol';

/**
 * Returns where to go after sign-in: next when it is a path of the console on
 * this site (not the sign-in or enrol page), else the console's start. A
 * link cannot send a person anywhere else (an open redirect).
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) {
    return consoleHome;
  }
  let url: URL;
  try {
    url = new URL(next, 'https://console.invalid');
  } catch {
    return consoleHome;
  }
  if (url.origin !== 'https://console.invalid') return consoleHome;
  const path = url.pathname;
  if (path !== consoleHome && !path.startsWith(consoleHome + '/')) return consoleHome;
  if (path === signInPath || path === enrolPath) return consoleHome;
  return path + url.search + url.hash;
}

/** The sign-in page's address that comes back to path afterwards. */
export function signInHref(path: string): string {
  return `${signInPath}?next=${encodeURIComponent(safeNext(path))}`;
}
