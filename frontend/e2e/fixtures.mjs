// The fixtures of the end-to-end tests. `site` is what a test drives: the
// worker's browser (Debian's Chromium, playwright.config.mjs) and a server.
// By default the server is the one the config's webServer runs for every
// file; a file whose tests need their own (their own data, flags or
// upstream) takes its test from ownSite.
import { test as base } from '@playwright/test';
import { withPage } from './harness.mjs';

export { expect } from '@playwright/test';

/** The site of a test: server and browser, and open(path, [viewport, [options,]] test) as withPage. */
function siteOf(server, browser, more = {}) {
  const site = { ...more, server, browser };
  site.open = (...page) => withPage(site, ...page);
  return site;
}

/** Tests on the shared server (the config's webServer). */
export const test = base.extend({
  site: async ({ browser }, use) => use(siteOf({ url: process.env.E2E_SERVE_URL }, browser)),
});

/**
 * Tests on a site of their own: start() resolves with its server (and
 * more, like the replay server) before the file's tests, in each worker
 * that runs some of them; stop(started) ends it after them. Call it once,
 * at the top of a file. The site is a test fixture over a per-file server
 * rather than a worker fixture so that every file has the same worker
 * fixtures and any worker runs any file, in file order: files with worker
 * fixtures of their own were held back until the others were done (the
 * slowest last).
 */
export function ownSite(start, stop = ({ server }) => server.stop()) {
  let started;
  base.beforeAll(async () => {
    started = await start();
  });
  base.afterAll(async () => {
    if (started) await stop(started);
  });
  return base.extend({
    site: async ({ browser }, use) => use(siteOf(started.server, browser, started)),
  });
}
