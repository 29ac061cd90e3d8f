// The Contact page (docs/SPEC.md section 2, "Contact").
import assert from 'node:assert/strict';
import { saveScreenshot, viewports } from './harness.mjs';
import { test } from './fixtures.mjs';

test.describe('contact page', () => {
  for (const [name, viewport] of Object.entries(viewports)) {
    test(`shows the sponsors, addresses, Email Us and social links at ${name} size`, async ({
      site,
    }) => {
      await site.open('/contact', viewport, async ({ page, errors }) => {
        assert.equal(await page.title(), 'RoboHornets - Contact');
        assert.ok(await page.getByRole('heading', { level: 1, name: 'CONTACT US' }).isVisible());

        // Two team sponsors: {name}, Team Sponsor, {email}, room 303 and room 406.
        const people = page.locator('main .person-card');
        assert.equal(await people.count(), 2);
        for (const [i, room] of ['303', '406'].entries()) {
          const card = people.nth(i);
          assert.equal(await card.locator('h3').innerText(), '{name}');
          const text = await card.innerText();
          assert.match(text, /Team Sponsor/i);
          assert.match(text, new RegExp(`Room ${room}`));
          const email = card.getByRole('link', { name: '{email}' });
          assert.equal(await email.getAttribute('href'), 'mailto:{email}');
          assert.ok(await email.isVisible());
        }

        // The school address and the build-season university address.
        const places = page.locator('main .address-card');
        assert.equal(await places.count(), 2);
        assert.match(await places.nth(0).innerText(), /Booker T\. Washington High School/);
        assert.match(await places.nth(1).innerText(), /Build season[\s\S]*University of Tulsa/i);
        for (const card of await places.all()) {
          const map = card.getByRole('link', { name: /Open in maps/ });
          assert.match(await map.getAttribute('href'), /^https:\/\/www\.google\.com\/maps\//);
          assert.equal(await map.getAttribute('target'), '_blank');
        }

        // Email Us opens a mailto link to the team address.
        const emailUs = page.getByRole('link', { name: 'Email Us' });
        assert.ok(await emailUs.isVisible());
        assert.equal(await emailUs.getAttribute('href'), 'mailto:{email}');

        // The social block is at the bottom.
        assert.equal(
          await page.evaluate(
            () => document.querySelector('main .page').lastElementChild.className,
          ),
          'social-block',
        );
        assert.equal(await page.locator('main .social-block a[target="_blank"]').count(), 4);

        await saveScreenshot(page, `contact-${name}`);
        await saveScreenshot(page, `contact-${name}-full`, { fullPage: true });
        assert.deepEqual(errors, []);
      });
    });
  }
});
