// The header and footer every page shares (docs/SPEC.md section 2, "Shared pieces").
import assert from 'node:assert/strict';
import { animationsDone, assertNoHeader, expected, saveScreenshot, viewports } from './harness.mjs';
import { test } from './fixtures.mjs';

const nav = [
  ['Home', '/'],
  ['News', '/news'],
  ['Outreach', '/outreach'],
  ['Sponsors', '/sponsors'],
  ['About', '/about'],
  ['Contact', '/contact'],
];

function mainNav(page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/** The nav link marked as the current page, or null. */
function currentLink(page) {
  return mainNav(page)
    .locator('a[aria-current="page"]')
    .evaluateAll((els) => els.map((e) => e.textContent));
}

test.describe('header and footer', () => {
  test('shows the links at 1920x1080 and highlights the current one', async ({ site }) => {
    await site.open('/', viewports.desktop, async ({ page, errors }) => {
      assert.equal(await mainNav(page).getByRole('button', { name: 'Menu' }).isVisible(), false);
      const links = mainNav(page).getByRole('link');
      assert.deepEqual(
        await links.allInnerTexts(),
        nav.map(([label]) => label),
      );
      for (const link of await links.all()) assert.ok(await link.isVisible());
      assert.deepEqual(await currentLink(page), ['Home']);

      for (const [label, path] of nav.slice(1)) {
        await mainNav(page).getByRole('link', { name: label }).click();
        await page.waitForURL((u) => u.pathname === path);
        await mainNav(page).locator('a[aria-current="page"]', { hasText: label }).waitFor();
        assert.deepEqual(await currentLink(page), [label], `on ${path}`);
      }
      // The current link looks different from the others.
      await page.mouse.move(0, 500);
      await animationsDone(links);
      const colors = await links.evaluateAll((els) => els.map((e) => getComputedStyle(e).color));
      assert.notEqual(colors[5], colors[0]);

      await saveScreenshot(page, 'header-desktop', {
        clip: { x: 0, y: 0, width: 1920, height: 120 },
      });
      assert.deepEqual(errors, []);
    });
  });

  test('collapses the links into a hamburger menu at 390x844', async ({ site }) => {
    await site.open('/about', viewports.phone, async ({ page, errors }) => {
      const toggle = mainNav(page).getByRole('button', { name: 'Menu' });
      assert.ok(await toggle.isVisible());
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      const menuId = await toggle.getAttribute('aria-controls');
      assert.ok(await page.locator(`#${menuId}`).count());
      assert.equal(await mainNav(page).getByRole('link', { name: 'News' }).isVisible(), false);

      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      for (const [label] of nav) {
        assert.ok(await mainNav(page).getByRole('link', { name: label }).isVisible(), label);
      }
      assert.deepEqual(await currentLink(page), ['About']);
      await animationsDone(page.locator(`#${menuId}`));
      await saveScreenshot(page, 'header-phone-menu');

      await mainNav(page).getByRole('link', { name: 'News' }).click();
      await page.waitForURL((u) => u.pathname === '/news');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await mainNav(page).getByRole('link', { name: 'News' }).isVisible(), false);

      await toggle.click();
      await page.keyboard.press('Escape');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.ok(await toggle.evaluate((el) => el === document.activeElement));
      assert.deepEqual(errors, []);
    });
  });

  test('switches between hamburger and links at 1200px', async ({ site }) => {
    await site.open('/', { width: 1199, height: 800 }, async ({ page }) => {
      const toggle = mainNav(page).getByRole('button', { name: 'Menu' });
      assert.ok(await toggle.isVisible());
      await page.setViewportSize({ width: 1200, height: 800 });
      assert.equal(await toggle.isVisible(), false);
      assert.ok(await mainNav(page).getByRole('link', { name: 'Contact' }).isVisible());
    });
  });

  for (const path of ['/reefscape', '/crescendo', '/rebuilt']) {
    test(`hides the header on ${path} and marks the body no-header`, async ({ site }) => {
      await site.open(path, viewports.desktop, async ({ page }) => {
        await page.locator('footer').waitFor();
        await assertNoHeader(page);
      });
    });
  }

  for (const [name, viewport] of Object.entries(viewports)) {
    test(`shows the footer on every page at ${name} size`, async ({ site }) => {
      await site.open('/contact', viewport, async ({ page, errors }) => {
        const footer = page.getByRole('contentinfo');
        assert.ok(await footer.getByRole('heading', { name: 'RoboHornets' }).isVisible());

        const email = footer.getByRole('link', { name: '{email}' });
        assert.equal(await email.getAttribute('href'), 'mailto:{email}');
        const address = footer.getByRole('link', { name: /Zion St/ });
        assert.match(await address.getAttribute('href'), /^https:\/\/www\.google\.com\/maps\//);
        assert.equal(await address.getAttribute('target'), '_blank');

        const sitemap = footer.getByRole('navigation', { name: 'Sitemap' }).getByRole('link');
        assert.deepEqual(
          await sitemap.evaluateAll((els) =>
            els.map((e) => [e.textContent, e.getAttribute('href')]),
          ),
          expected.sitemap,
        );

        const external = footer.getByRole('navigation', { name: 'Links' }).getByRole('link');
        const labels = await external.allInnerTexts();
        assert.deepEqual(
          labels.map((l) => l.replace('(opens in a new tab)', '').trim()),
          ['FIRST Robotics', 'University of Tulsa', 'Booker T. Washington High School'],
        );
        for (const a of await external.all()) {
          assert.match(await a.getAttribute('href'), /^https:\/\//);
          assert.equal(await a.getAttribute('target'), '_blank');
          assert.equal(await a.getAttribute('rel'), 'noopener noreferrer');
        }

        await footer.scrollIntoViewIfNeeded();
        await animationsDone(footer);
        await saveScreenshot(footer, `footer-${name}`);
        assert.deepEqual(errors, []);
      });
    });
  }

  test('keeps a hidden HH:mm clock that refreshes every second', async ({ site }) => {
    const context = await site.browser.newContext({ viewport: viewports.desktop });
    const page = await context.newPage();
    try {
      const start = new Date(2025, 0, 4, 12, 8, 30);
      await page.clock.install({ time: start });
      // The page follows the server's clock (GET /api/time): make the server agree.
      await page.route('**/api/time', (route) => route.fulfill({ json: { now: start.getTime() } }));
      await page.goto(site.server.url + '/', { waitUntil: 'networkidle' });
      const clock = page.getByTestId('footer-clock');
      assert.match(await clock.textContent(), /\b12:08\b/);
      const box = await clock.boundingBox();
      assert.ok(!box || (box.width <= 1 && box.height <= 1), 'not visibly shown');
      // Time flows from the install; 31 s more is past 12:09 but not 12:10.
      await page.clock.runFor(31_000);
      assert.match(await clock.textContent(), /\b12:09\b/);
      await page.clock.runFor(60_000);
      assert.match(await clock.textContent(), /\b12:10\b/);
    } finally {
      await context.close();
    }
  });
});
