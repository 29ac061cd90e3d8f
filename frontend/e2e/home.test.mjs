// The home page (docs/SPEC.md section 2, "Home"): the BTW ROBOTICS banner with its
// slideshow and parallax, then the team's sections in the spec's order.
import assert from 'node:assert/strict';
import { animationsDone, expected, saveScreenshot, viewports, wheel } from './harness.mjs';
import { expect, test } from './fixtures.mjs';

const AUTO_ADVANCE = 4000;
const SLIDE_ANIMATION = 500;

/** The index of the slide that is not hidden from assistive technology. */
function currentSlide(page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[aria-roledescription="slide"]')).findIndex(
      (s) => !s.hasAttribute('aria-hidden'),
    ),
  );
}

test.describe('home page', () => {
  for (const [name, viewport] of Object.entries(viewports)) {
    test(`shows the spec's facts in order at ${name} size`, async ({ site }) => {
      await site.open('/', viewport, async ({ page, errors }) => {
        assert.equal(await page.title(), 'RoboHornets - Home');
        const h1 = page.getByRole('heading', { level: 1, name: 'BTW ROBOTICS' });
        assert.ok(await h1.isVisible());

        // A full-height banner: it fills the screen under the header.
        const banner = await page.locator('.banner').boundingBox();
        const header = await page.locator('header.site-header').boundingBox();
        assert.ok(Math.abs(banner.height + header.height - viewport.height) <= 4, 'full height');

        // The three-picture slideshow, all pictures loadable.
        const carousel = page.locator('[aria-roledescription="carousel"]');
        assert.equal(await carousel.locator('[aria-roledescription="slide"]').count(), 3);
        for (const img of await carousel.locator('img').all()) {
          const ok = await img.evaluate(async (el) => {
            if (!el.complete)
              await new Promise((r) => el.addEventListener('load', r, { once: true }));
            return el.naturalWidth > 0;
          });
          assert.ok(ok, 'slide picture loads');
          assert.notEqual(await img.getAttribute('alt'), '');
        }

        // The first picture, the page's largest paint, is the one the head
        // preloads at high priority (the server's copy of index.html).
        const preload = await page.evaluate(() => {
          const link = document.querySelector('link[rel="preload"][as="image"]');
          return link && { href: link.href, priority: link.getAttribute('fetchpriority') };
        });
        const first = await carousel
          .locator('img')
          .first()
          .evaluate((el) => el.src);
        assert.deepEqual(preload, { href: first, priority: 'high' });

        // The sections, in the spec's order.
        const headings = await page.locator('main h2').allInnerTexts();
        assert.deepEqual(headings, expected.homeSections);
        const main = await page.locator('main').innerText();
        assert.match(main, /over 40 members/);
        assert.match(main, /founded in 2003/);

        // Joining: two team sponsors with their contact details.
        const joining = page.locator('section', {
          has: page.locator('h2', { hasText: 'Joining Team 1209' }),
        });
        const people = joining.locator('.person-card');
        assert.equal(await people.count(), 2);
        const joinText = await joining.innerText();
        assert.deepEqual(
          (await people.locator('.person-card__role').allTextContents()).map((t) => t.trim()),
          ['Team Sponsor', 'Team Sponsor'],
        );
        assert.match(joinText, /Room 303/);
        assert.match(joinText, /Room 406/);
        assert.equal(await joining.locator('a[href^="mailto:"]').count(), 2);

        // Meetings.
        const meetings = await page
          .locator('section', { has: page.locator('h2', { hasText: 'Meetings' }) })
          .innerText();
        assert.match(meetings, /Off-season \(Semester 1\)/);
        assert.match(meetings, /Build season \(Semester 2\)/);
        assert.equal(meetings.match(/Mondays and Wednesdays 3:40PM-6:00PM/g).length, 2);
        assert.match(meetings, /Saturdays 12:00PM-4:30PM/);
        assert.match(meetings, /first new-member meeting was September 4th/);
        assert.match(meetings, /September 11th/);

        // Build season.
        const build = await page
          .locator('section', { has: page.locator('h2', { hasText: 'Build Season' }) })
          .innerText();
        assert.match(build, /six weeks/);
        assert.match(build, /early January at kickoff/);

        // FRC Challenges: two cards, both headed 2025.
        const cards = page.locator('.challenge');
        assert.equal(await cards.count(), 2);
        for (const [i, [game, href]] of [
          ['Reefscape', '/reefscape'],
          ['Crescendo', '/crescendo'],
        ].entries()) {
          const card = cards.nth(i);
          assert.match(await card.locator('h3').innerText(), new RegExp(`^2025\\s+${game}$`, 'i'));
          const more = card.getByRole('link', { name: `Learn More about ${game}` });
          assert.equal(await more.getAttribute('href'), href);
          assert.equal(await more.innerText(), `Learn More about ${game}`);
        }

        const readMore = page.getByRole('link', { name: 'Read More About our Team' });
        assert.equal(await readMore.getAttribute('href'), '/about');

        // The social block closes the page.
        const social = page.locator('main .social-block');
        const socialLinks = social.locator('a');
        assert.equal(await socialLinks.count(), 4);
        for (const a of await socialLinks.all()) {
          assert.equal(await a.getAttribute('target'), '_blank');
          assert.equal(await a.getAttribute('rel'), 'noopener noreferrer');
          assert.match(await a.getAttribute('aria-label'), /opens in a new tab/);
        }
        assert.equal(
          await page.evaluate(
            () => document.querySelector('main .page').lastElementChild.className,
          ),
          'social-block',
        );

        await saveScreenshot(page, `home-${name}`);
        await saveScreenshot(page, `home-${name}-full`, { fullPage: true });
        assert.deepEqual(errors, []);
      });
    });
  }

  test('rotates the slideshow on a timer, with buttons, picker and arrow keys', async ({
    site,
  }) => {
    const context = await site.browser.newContext({ viewport: viewports.desktop });
    const page = await context.newPage();
    try {
      await page.clock.install();
      await page.goto(site.server.url + '/', { waitUntil: 'networkidle' });
      // Time flows until paused; then stop and start the rotation so its timer
      // starts from a known moment.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
      await page.getByRole('button', { name: 'Stop automatic slide show' }).click();
      await page.getByRole('button', { name: 'Start automatic slide show' }).click();
      assert.equal(await currentSlide(page), 0);
      await page.clock.runFor(AUTO_ADVANCE - 100);
      assert.equal(await currentSlide(page), 0);
      await page.clock.runFor(200);
      assert.equal(await currentSlide(page), 1);
      await page.clock.runFor(AUTO_ADVANCE);
      assert.equal(await currentSlide(page), 2);
      await page.clock.runFor(AUTO_ADVANCE);
      assert.equal(await currentSlide(page), 0, 'wraps from the last slide to the first');

      await page.clock.runFor(SLIDE_ANIMATION);
      await page.getByRole('button', { name: 'Previous slide' }).click();
      assert.equal(await currentSlide(page), 2, 'previous wraps to the last slide');
      await page.getByRole('button', { name: 'Next slide' }).click();
      assert.equal(await currentSlide(page), 2, 'ignored while animating');
      await page.clock.runFor(SLIDE_ANIMATION);
      await page.getByRole('button', { name: 'Slide 2 of 3' }).click();
      assert.equal(await currentSlide(page), 1);
      assert.equal(
        await page.getByRole('button', { name: 'Slide 2 of 3' }).getAttribute('aria-current'),
        'true',
      );

      await page.clock.runFor(SLIDE_ANIMATION);
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('ArrowRight');
      assert.equal(await currentSlide(page), 2);
      await page.keyboard.press('ArrowLeft');
      assert.equal(await currentSlide(page), 2, 'one key per 500 ms');
      await page.clock.runFor(SLIDE_ANIMATION);
      await page.keyboard.press('ArrowLeft');
      assert.equal(await currentSlide(page), 1);

      await page.getByRole('button', { name: 'Stop automatic slide show' }).click();
      await page.clock.runFor(AUTO_ADVANCE * 3);
      assert.equal(await currentSlide(page), 1, 'stopped');
    } finally {
      await context.close();
    }
  });

  test('moves the banner at half the scroll distance (parallax)', async ({ site }) => {
    await site.open('/', viewports.desktop, async ({ page }) => {
      await wheel(page, 400);
      assert.ok((await page.evaluate(() => window.scrollY)) >= 399);
      // The layer follows within its throttle.
      await expect(async () => {
        const shift = await page.evaluate(() => {
          const layer = document.querySelector('.carousel__layer');
          return {
            y: new DOMMatrix(getComputedStyle(layer).transform).m42,
            scroll: window.scrollY,
          };
        });
        assert.ok(
          Math.abs(shift.y - shift.scroll * 0.5) <= 1,
          `layer moved ${shift.y}px for ${shift.scroll}px`,
        );
      }, 'the banner layer follows the scroll at half speed').toPass();
    });
  });

  test('recolours the title letters one after another on hover', async ({ site }) => {
    await site.open('/', viewports.desktop, async ({ page }) => {
      const delays = await page.evaluate(() =>
        Array.from(document.querySelectorAll('h1 .letters__char'), (el) =>
          getComputedStyle(el).transitionDelay.split(',')[0].trim(),
        ),
      );
      // B T W _ R …: 30 ms per letter, the space keeps its slot.
      assert.deepEqual(delays.slice(0, 5), ['0s', '0.03s', '0.06s', '0.12s', '0.15s']);
      const letter = page.locator('h1 .letters__char').first();
      const before = await letter.evaluate((el) => getComputedStyle(el).color);
      await page.locator('h1').hover();
      // The letters' colour transitions have run their course.
      await animationsDone(page.locator('h1'));
      const afterHover = await letter.evaluate((el) => getComputedStyle(el).color);
      assert.equal(before, 'rgb(255, 255, 255)');
      assert.equal(afterHover, 'rgb(245, 183, 0)');
    });
  });

  test('stops rotation and parallax for visitors who prefer reduced motion', async ({ site }) => {
    const context = await site.browser.newContext({
      viewport: viewports.desktop,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    try {
      await page.clock.install();
      await page.goto(site.server.url + '/', { waitUntil: 'networkidle' });
      assert.equal(await page.getByRole('button', { name: /automatic slide show/ }).count(), 0);
      await page.clock.runFor(AUTO_ADVANCE * 3);
      assert.equal(await currentSlide(page), 0);
      await page.evaluate(() => window.scrollTo(0, 400));
      await page.clock.runFor(100);
      const transform = await page
        .locator('.carousel__layer')
        .evaluate((el) => getComputedStyle(el).transform);
      assert.equal(transform, 'none');
    } finally {
      await context.close();
    }
  });

  test('leads to the season pages and to About, each opening at its top', async ({ site }) => {
    await site.open('/', viewports.desktop, async ({ page }) => {
      // The URL changes before the new page renders, so the checks wait for its content.
      const scrollY = () => page.evaluate(() => window.scrollY);
      await page.getByRole('link', { name: 'Learn More about Reefscape' }).click();
      await page.waitForURL((u) => u.pathname === '/reefscape');
      await page.goBack();
      await page.getByRole('link', { name: 'Learn More about Crescendo' }).click();
      await page.waitForURL((u) => u.pathname === '/crescendo');
      await page.goBack();
      const readMore = page.getByRole('link', { name: 'Read More About our Team' });
      await readMore.scrollIntoViewIfNeeded();
      assert.ok((await scrollY()) > 0, 'Read More is below the first screen');
      await readMore.click();
      await page.waitForURL((u) => u.pathname === '/about');
      await page.locator('#about-0').waitFor();
      assert.equal(await scrollY(), 0, 'a new page opens at its top');

      // Every navigation leaves the page at its top (docs/SPEC.md section 2): Back too.
      await page.locator('footer').scrollIntoViewIfNeeded();
      assert.ok((await scrollY()) > 0, 'About scrolled down to its footer');
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: 'BTW ROBOTICS' }).waitFor();
      assert.equal(await scrollY(), 0, 'Back opens the page at its top');
    });
  });
});
