// No secret leaves the server or sits in the repository: the API keys and
// the webhook token given to `serve` appear in none of its responses, and
// neither the built bundle nor any tracked file holds a credential or a
// Firebase web configuration.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { binary, specRoutes, startServer } from './harness.mjs';
import { test } from './fixtures.mjs';

const repo = new URL('../../', import.meta.url).pathname;
const dist = new URL('../dist/', import.meta.url).pathname;

// What a credential looks like. The private-key and Firebase markers are
// built from parts so this file does not match itself.
const credentialPatterns = [
  { name: 'Google API key (Firebase web config)', re: /AIza[0-9A-Za-z_-]{35}/ },
  {
    name: 'private key',
    re: new RegExp(['-----BEGIN', '(RSA |EC |OPENSSH )?PRIVATE KEY-----'].join(' ')),
  },
  { name: 'service account key', re: /"private_key_id"\s*:/ },
  {
    name: 'Firebase web config',
    re: new RegExp(
      `${['firebase', 'Config'].join('')}|authDomain\\s*:\\s*["'][^"']+\\.firebaseapp\\.com`,
    ),
  },
  { name: 'AWS access key', re: /AKIA[0-9A-Z]{16}/ },
  { name: 'GitHub token', re: /gh[pousr]_[A-Za-z0-9]{36}/ },
];

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

function findCredentials(path) {
  const text = readFileSync(path, 'latin1');
  return credentialPatterns.filter(({ re }) => re.test(text)).map(({ name }) => `${path}: ${name}`);
}

test.describe('secrets', () => {
  const secrets = {
    NEXUS_API_KEY: `nexus-${randomBytes(12).toString('hex')}`,
    TBA_API_KEY: `tba-${randomBytes(12).toString('hex')}`,
    NEXUS_WEBHOOK_TOKEN: `hook-${randomBytes(12).toString('hex')}`,
  };
  let server;
  test.beforeAll(async () => {
    // Upstreams that refuse connections: their errors must not carry the keys either.
    server = await startServer({
      env: secrets,
      extraArgs: [
        '--event',
        '2026oktu',
        '--nexus-url',
        'http://127.0.0.1:9',
        '--tba-url',
        'http://127.0.0.1:9',
      ],
    });
  });
  test.afterAll(() => server?.stop());

  test('are in no response of a server started with them', async () => {
    const index = await (await fetch(`${server.url}/`)).text();
    const assets = filesUnder(join(dist, 'assets')).map(
      (f) => `/assets/${f.slice(join(dist, 'assets').length + 1)}`,
    );
    const { articles } = await (await fetch(`${server.url}/api/news`)).json();
    const paths = [
      ...specRoutes,
      '/pit',
      ...articles.map((a) => `/news/${encodeURIComponent(a.id)}`),
      ...articles.map((a) => `/api/news/${encodeURIComponent(a.id)}`),
      '/api/news',
      '/api/event',
      '/api/time',
      '/healthz',
      '/news.xml',
      '/sitemap.xml',
      '/robots.txt',
      '/api/nope',
      '/nope',
      ...assets,
    ];
    assert.ok(index.includes('<div id="root">'));
    const leaks = [];
    for (const path of paths) {
      for (const encoding of ['identity', 'gzip, br']) {
        const res = await fetch(`${server.url}${path}`, {
          headers: { 'Accept-Encoding': encoding },
        });
        const text = `${[...res.headers].join('\n')}\n${await res.text()}`;
        for (const [name, value] of Object.entries(secrets)) {
          if (text.includes(value)) leaks.push(`${path} (${encoding}): ${name}`);
        }
      }
    }
    // The webhook's answers to a wrong token say nothing of the right one.
    const wrong = await fetch(`${server.url}/api/nexus/webhook`, {
      method: 'POST',
      headers: { 'Nexus-Token': 'wrong', 'Content-Type': 'application/json' },
      body: '{}',
    });
    const wrongText = await wrong.text();
    assert.equal(wrong.status, 401);
    for (const [name, value] of Object.entries(secrets)) {
      if (wrongText.includes(value)) leaks.push(`webhook with a wrong token: ${name}`);
    }
    assert.deepEqual(leaks, []);
  });

  test('nor credentials are in the built bundle', () => {
    const files = filesUnder(dist);
    assert.ok(files.length > 3, `the build in ${dist} is missing`);
    assert.deepEqual(files.flatMap(findCredentials), []);
  });

  test('nor credentials are in any tracked file', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean)
      .map((f) => join(repo, f));
    assert.ok(tracked.length > 50, 'git ls-files listed almost nothing');
    assert.deepEqual(tracked.flatMap(findCredentials), []);
  });
});

test.describe('serve --store firestore without a project id', () => {
  test('refuses to start and says what is missing', () => {
    const env = { ...process.env };
    delete env.GOOGLE_CLOUD_PROJECT;
    const run = spawnSync(binary, ['serve', '--listen', '127.0.0.1:0', '--store', 'firestore'], {
      env,
      encoding: 'utf8',
      timeout: 15000,
    });
    assert.equal(run.error, undefined, `it did not exit: ${run.error}`);
    assert.notEqual(run.status, 0, `it exited with 0:\n${run.stderr}`);
    assert.match(run.stderr, /project id: pass --project or set GOOGLE_CLOUD_PROJECT/);
    assert.doesNotMatch(run.stderr, /goroutine |panic/);
  });
});
