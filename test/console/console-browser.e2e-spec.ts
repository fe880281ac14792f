import type { Browser, Page } from 'playwright-core';
import { eventually } from '../support/eventually.js';
import { expectNoA11yViolations } from './support/a11y.js';
import { chromiumAvailable, launchChromium, screenshot, watchedPage, type WatchedPage } from './support/browser.js';
import { consolePage, FAILED_LOAD } from './support/page-helpers.js';
import { API_KEY, startSeededService, type SeededService } from './support/seeded-service.js';

/**
 * The operator console in a real browser (Debian's Chromium through playwright-core) against
 * the built service as a real process: sign-in, every page, filters and paging, an event's
 * detail, replays (one, selected, bulk after a dry run), a receipt. Every page must
 * log no console error and have no serious or critical axe-core (WCAG 2 A/AA) violation, at
 * desktop size and the events page at phone size. Screenshots go to test-artifacts/console/.
 */
const describeWithBrowser = chromiumAvailable() ? describe : describe.skip;

describeWithBrowser('operator console in Chromium', () => {
  let seeded: SeededService;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let h: ReturnType<typeof consolePage>;

  beforeAll(async () => {
    seeded = await startSeededService();
    browser = await launchChromium();
    watched = await watchedPage(browser);
    page = watched.page;
    h = consolePage(page, () => seeded.service.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await seeded?.stop();
  });

  it('refuses a wrong key with a visible message, then accepts the right one', async () => {
    await page.goto(`${seeded.service.baseUrl}/console`);
    expect(new URL(page.url()).pathname).toBe('/console/');
    await page.getByLabel('Inspection API key').waitFor();
    await expectNoA11yViolations(page, 'the sign-in form');
    await page.getByLabel('Inspection API key').fill('not-the-key-at-all-0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong key' }).waitFor();
    await screenshot(page, 'sign-in-wrong-key');
    await page.getByLabel('Inspection API key').fill(API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await h.heading('Overview');
    expect(await page.evaluate('sessionStorage.getItem("wdd.inspectionApiKey")')).toBe(API_KEY);
    watched.expectNoErrors([FAILED_LOAD(401)]);
  }, 60_000);

  it('Overview: activity chart, breakdowns, backlog and destinations', async () => {
    await page.locator('.chart canvas').waitFor();
    await page.getByRole('table', { name: 'By source' }).getByRole('button', { name: 'Show only generic' }).waitFor();
    await page.getByRole('table', { name: 'By tenant (top 20)' }).getByRole('button', { name: 'Show only shop-eu' }).waitFor();
    await page.getByText('Backlog (not processed yet)').waitFor();
    await page.getByText(/No destinations configured/).waitFor();
    await screenshot(page, 'overview', false); // 1280×800, for the README
    await expectNoA11yViolations(page, 'the Overview');
    await page.getByRole('radio', { name: 'Last day' }).check();
    await page.waitForURL(/range=day/);
    await page.getByRole('table', { name: 'By source' }).getByRole('button', { name: 'Show only generic' }).click();
    await page.waitForURL(/provider=generic/);
    await page.getByRole('table', { name: 'By source' }).getByRole('row').nth(1).filter({ hasText: 'generic' }).waitFor();
    expect(await page.getByRole('table', { name: 'By source' }).locator('tbody tr').count()).toBe(1);
    await screenshot(page, 'overview-filtered');
    watched.expectNoErrors();
  }, 60_000);

  it('Events: filters in the URL, next and previous pages, a detail opened from the list', async () => {
    await h.go('#/events', 'Events');
    await page.getByLabel('Source').selectOption('generic');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/#\/events\?provider=generic/);
    await h.rowCount(12);
    expect(await h.rows().filter({ hasText: 'meta' }).count()).toBe(0);
    await screenshot(page, 'events-filtered');

    await h.go('#/events?limit=25', 'Events');
    await page.getByText('Page 1').waitFor();
    await h.rowCount(25);
    const firstOfPage1 = await h.rows().first().locator('td.id').innerText();
    await page.getByRole('button', { name: 'Next page →' }).click();
    await page.getByText('Page 2').waitFor();
    await h.firstId(firstOfPage1, false);
    await page.getByRole('button', { name: 'Next page →' }).click();
    await page.getByText('Page 3').waitFor();
    await h.rowCount(73 - 50); // 60 Meta messages, 12 generic ones and a status
    await page.getByRole('button', { name: '← Previous page' }).click();
    await page.getByText('Page 2').waitFor();
    await page.getByRole('button', { name: '← Previous page' }).click();
    await page.getByText('Page 1').waitFor();
    await h.firstId(firstOfPage1);

    await page.getByLabel('Live refresh (every 5 s)').check();
    await page.getByTestId('refresh-status').filter({ hasText: /Updated/ }).waitFor();
    await screenshot(page, 'events');
    await expectNoA11yViolations(page, 'the Events page');
    await page.getByLabel('Live refresh (every 5 s)').uncheck();

    await h.rows().first().getByRole('link').click();
    await h.heading(`Event ${firstOfPage1}`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.locator('.timeline').getByText('Received', { exact: true }).waitFor();
    await page.getByRole('list', { name: 'Payload as stored' }).waitFor();
    await screenshot(page, 'event-detail');
    await expectNoA11yViolations(page, 'an event’s detail');
    watched.expectNoErrors();
  }, 90_000);

  it('Event detail: a dead event is replayed and becomes processed', async () => {
    seeded.fix();
    const [id] = seeded.deadIds;
    await h.go(`#/events/${encodeURIComponent(id!)}`, `Event ${id}`);
    await page.locator('.fields').getByText('dead', { exact: true }).waitFor();
    await page.locator('.timeline').getByText('Dead (attempts exhausted)').waitFor();
    await page.getByRole('button', { name: 'Replay event' }).click();
    await page.getByTestId('detail-message').getByText(/queued again/).waitFor();
    await page.locator('.fields').getByText('processed', { exact: true }).waitFor({ timeout: 20_000 });
    await page.locator('.timeline').getByText('Replayed').waitFor();
    await page.locator('.timeline').getByText('Processed', { exact: true }).waitFor();
    await screenshot(page, 'event-detail-replayed');
    watched.expectNoErrors();
  }, 60_000);

  it('Dead letters: replay a selection, then a bulk replay by filter after a dry-run count', async () => {
    await h.go('#/dead', 'Dead letters');
    await h.rowCount(2);
    await screenshot(page, 'dead-letters');
    await expectNoA11yViolations(page, 'the Dead letters page');
    await page.getByLabel(`Select ${seeded.deadIds[1]}`).check();
    await page.getByRole('button', { name: 'Replay selected (1)' }).click();
    await page.getByTestId('replay-outcome').getByText('Replayed 1.').waitFor();

    await page.getByRole('button', { name: 'Count matching dead events (dry run)…' }).click();
    await page.getByTestId('bulk-status').getByText(/1 dead event matches these filters/).waitFor();
    await screenshot(page, 'dead-letters-dry-run');
    await page.getByRole('button', { name: 'Replay 1 dead event' }).click();
    await page.getByTestId('bulk-status').getByText('Replayed 1 dead event.').waitFor();
    await eventually(() => seeded.api('/messages/stats'), (stats) => stats.byStatus.processed === 73, 20_000);
    await h.go('#/dead', 'Dead letters');
    await page.getByText('No event matches these filters.').waitFor();
    watched.expectNoErrors();
  }, 60_000);

  it('Receipts: looks up a receipt, and says when there is none; an old #/deliveries bookmark lands here', async () => {
    await h.go('#/receipts', 'Receipts');
    await page.getByLabel('Outbound message id (wamid)').fill(seeded.deliveredWamid);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('definition').filter({ hasText: 'delivered' }).first().waitFor();
    await page.getByText('16505551234').waitFor();
    await screenshot(page, 'receipts');
    await expectNoA11yViolations(page, 'the Receipts page');
    await page.getByLabel('Outbound message id (wamid)').fill('wamid.UNKNOWN');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not load the receipt' }).waitFor();

    await h.go(`#/deliveries?wamid=${encodeURIComponent(seeded.deliveredWamid)}`, 'Receipts');
    expect(new URL(page.url()).hash).toBe(`#/receipts?wamid=${encodeURIComponent(seeded.deliveredWamid)}`);
    await page.getByRole('link', { name: 'Receipts' }).and(page.locator('[aria-current="page"]')).waitFor();
    await page.getByText('16505551234').waitFor();
    watched.expectNoErrors([FAILED_LOAD(404)]);
  }, 60_000);

  it('Destinations, and a phone-sized Events page', async () => {
    await h.go('#/destinations', 'Destinations');
    await page.getByText(/No destinations configured/).waitFor();
    await screenshot(page, 'destinations');
    await expectNoA11yViolations(page, 'the Destinations page');
    const phone = await watchedPage(browser, { width: 390, height: 844 });
    await phone.page.goto(`${seeded.service.baseUrl}/console/#/events`);
    await phone.page.getByLabel('Inspection API key').fill(API_KEY); // a new page is a new browser session
    await phone.page.getByRole('button', { name: 'Sign in' }).click();
    await phone.page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    await phone.page.locator('table tbody tr').first().waitFor();
    await screenshot(phone.page, 'events-phone', false);
    await expectNoA11yViolations(phone.page, 'the Events page at phone size');
    phone.expectNoErrors([FAILED_LOAD(401)]);
    await phone.page.close();
    watched.expectNoErrors();
  }, 60_000);
});

