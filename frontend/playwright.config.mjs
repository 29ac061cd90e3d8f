// The Chromium end-to-end suites (e2e/*.test.mjs) on @playwright/test:
// `make test-e2e` runs `npx playwright test` with this file. Debian's
// Chromium, never a downloaded browser; the serve binary of the built site
// (make build/bin/robohornets-server) as the web server most files share;
// the files that need their own serve (their own data, flags or upstream)
// start it in a fixture (e2e/fixtures.mjs).
import { defineConfig } from '@playwright/test';
import { binary, chromiumArgs } from './e2e/harness.mjs';

/** The shared server's data directory, emptied at each run. */
const dataDir = new URL('../build/e2e/data', import.meta.url).pathname;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.test.mjs',
  // The files run side by side, each in one worker, its tests in order
  // (a file may mark a group of its tests parallel). On 2 cores, 2 and 3
  // workers took the same time (8 min 47 s, 8 min 46 s), 3 with a
  // frame-timing failure: 2. E2E_WORKERS overrides it.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  // No retries: a test that fails once is reported, not hidden.
  retries: 0,
  forbidOnly: true,
  timeout: 120_000,
  // Web-first assertions, expect.poll and toPass wait up to 10 s.
  expect: { timeout: 10_000, toPass: { timeout: 10_000 } },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: chromiumArgs,
    },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `rm -rf '${dataDir}' && mkdir -p '${dataDir}' && exec '${binary}' serve --listen 127.0.0.1:0 --data '${dataDir}'`,
    // serve says where it listens; the URL goes to the tests as $E2E_SERVE_URL.
    wait: { stdout: /"message":"serving","url":"(?<e2e_serve_url>http:\/\/[^"]+)"/ },
    timeout: 15_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
