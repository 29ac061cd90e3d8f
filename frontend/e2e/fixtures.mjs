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
  site: [
    async ({ browser }, use) => use(siteOf({ url: process.env.E2E_SERVE_URL }, browser)),
    { scope: 'worker' },
  ],
});

/**
 * Tests on a site of their own: start() resolves with its server (and
 * more, like the replay server), once per worker; stop(started) ends it.
 */
export function ownSite(start, stop = ({ server }) => server.stop()) {
  return base.extend({
    site: [
      async ({ browser }, use) => {
        const started = await start();
        try {
          await use(siteOf(started.server, browser, started));
        } finally {
          await stop(started);
        }
      },
      { scope: 'worker' },
    ],
  });
}
