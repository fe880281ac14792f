import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startDownstream, type Downstream, type ReceivedRequest } from '../support/downstream.js';
import { eventually } from '../support/eventually.js';
import { metaText, uniqueId } from '../support/payloads.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { postWebhook } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { expectNoA11yViolations } from './support/a11y.js';
import { chromiumAvailable, launchChromium, screenshot, watchedPage, type WatchedPage } from './support/browser.js';
import { consolePage, FAILED_LOAD } from './support/page-helpers.js';
import { API_KEY } from './support/seeded-service.js';

/**
 * The console with DESTINATIONS_FILE (not FORWARD_URL), in Chromium against the built service as
 * a real process: `bot` healthy (ordering: conversation), `crm` answering 503 (2 attempts, its
 * circuit opening after 2 failures), `warehouse` disabled. The Overview and the Destinations page
 * show each destination as GET /destinations gives it; an event's detail shows its deliveries
 * and their timeline; a dead delivery to crm is replayed from the page once crm answers again.
 */
const describeWithBrowser = chromiumAvailable() ? describe : describe.skip;

const MESSAGES = 3;
const FILE = (url: string) => `
destinations:
  - name: bot
    url: ${url}/bot
    filter: { kind: message }
    ordering: conversation
  - name: crm
    url: ${url}/crm
    maxAttempts: 2
    circuitBreaker: { failures: 2, probeInterval: 300ms }
  - name: warehouse
    url: ${url}/warehouse
    enabled: false
`;

interface Destination {
  name: string;
  enabled: boolean;
  state: string;
  consecutiveFailures: number;
  pausedUntil: string | null;
  rateLimit: { perSecond: number; burst: number } | null;
  lastError: string | null;
  backlog: number;
  oldestUnfinishedAgeSeconds: number | null;
  dead: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TIME = '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}';

/** A destination's row in DestinationsTable (Overview and Destinations page alike). */
function destinationRow(page: Page, name: string): Locator {
  const table = page.getByRole('table', { name: 'Destinations and their state' });
  return table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}

/** Waits for each destination's row, then checks every cell against what GET /destinations answered. */
async function expectDestinationsAsTheApiGivesThem(page: Page, destinations: Destination[]): Promise<void> {
  const table = page.getByRole('table', { name: 'Destinations and their state' });
  await table.locator('tbody tr').nth(destinations.length - 1).waitFor();
  expect(await table.locator('tbody tr').count()).toBe(destinations.length);
  for (const d of destinations) {
    const row = destinationRow(page, d.enabled ? d.name : `${d.name} (disabled)`);
    await row.waitFor();
    const [state, backlog, oldest, dead, failures, rateLimit, lastError] = await row.locator('td').allInnerTexts();
    expect(await row.locator('td .badge').innerText()).toBe(d.state);
    expect({ name: d.name, state, backlog, oldest, dead, failures, rateLimit }).toEqual({
      name: d.name,
      // An open circuit's next probe (and a Retry-After's end) shows as "until …", while it is ahead.
      state: expect.stringMatching(new RegExp(`^${d.state}( until ${TIME})?$`)),
      backlog: String(d.backlog),
      oldest: d.oldestUnfinishedAgeSeconds === null ? '—' : expect.any(String),
      dead: String(d.dead),
      failures: String(d.consecutiveFailures),
      rateLimit: d.rateLimit ? `${d.rateLimit.perSecond}/s, burst ${d.rateLimit.burst}` : 'none',
    });
    expect(lastError).toMatch(d.lastError === null ? /^—$/ : new RegExp(`^${escape(d.lastError)} \\(${TIME}\\)$`));
  }
}

describeWithBrowser('operator console with DESTINATIONS_FILE, in Chromium', () => {
  let db: TestDatabase;
  let downstream: Downstream;
  let service: ServiceProcess;
  let dir: string;
  let crmUp = false;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let h: ReturnType<typeof consolePage>;
  const keys: string[] = [];
  const api = async <T = any>(path: string): Promise<T> =>
    (await fetch(`${service.baseUrl}${path}`, { headers: { authorization: `Bearer ${API_KEY}` } })).json() as Promise<T>;
  const destinations = () => api<Destination[]>('/destinations');
  const to = (name: string) => (r: ReceivedRequest) => r.path === `/hook/${name}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    downstream = await startDownstream((_n, req) => (to('crm')(req) && !crmUp ? { status: 503 } : { status: 200 }));
    dir = mkdtempSync(join(tmpdir(), 'wdd-console-destinations-'));
    writeFileSync(join(dir, 'destinations.yaml'), FILE(downstream.url));
    service = await startServiceProcess({
      DATABASE_URL: db.url, INSPECTION_API_KEY: API_KEY, DESTINATIONS_FILE: join(dir, 'destinations.yaml'), WORKER_ENABLED: 'true',
      RETRY_BASE_MS: '100', RETRY_MAX_MS: '200',
    });
    // Three signed Meta messages of one conversation: each goes to bot and crm, none to the disabled warehouse.
    for (let i = 0; i < MESSAGES; i++) {
      const wamid = uniqueId('wamid.DEST');
      keys.push(`meta:msg:${wamid}`);
      expect((await postWebhook(service.baseUrl, metaText(wamid, `message ${i}`))).status).toBe(200);
    }
    await eventually(destinations, (list) => {
      const [bot, crm] = list;
      return bot?.backlog === 0 && crm?.backlog === 0 && crm.dead === MESSAGES && crm.state === 'open';
    }, 30_000);
    browser = await launchChromium();
    watched = await watchedPage(browser);
    page = watched.page;
    h = consolePage(page, () => service.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await downstream?.close();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the service delivered to bot, dead-lettered crm after 2 attempts and opened its circuit, and sent nothing to warehouse', async () => {
    const list = await destinations();
    expect(list).toMatchObject([
      { name: 'bot', enabled: true, state: 'closed', ordering: 'conversation', consecutiveFailures: 0, backlog: 0, dead: 0, lastError: null },
      { name: 'crm', enabled: true, state: 'open', maxAttempts: 2, backlog: 0, dead: MESSAGES, lastError: expect.stringContaining('answered 503') },
      { name: 'warehouse', enabled: false, state: 'closed', backlog: 0, dead: 0, lastError: null },
    ]);
    expect(list[1]!.consecutiveFailures).toBeGreaterThanOrEqual(2);
    expect(downstream.requests.filter(to('bot')).map((r) => r.headers['idempotency-key'])).toEqual(keys); // in conversation order
    expect(downstream.requests.filter(to('crm'))).toHaveLength(MESSAGES * 2);
    expect(downstream.requests.filter(to('warehouse'))).toHaveLength(0);
  });

  it('Overview and Destinations page: each destination with its state, backlog, dead count and last error', async () => {
    await page.goto(`${service.baseUrl}/console/`);
    await page.getByLabel('Inspection API key').fill(API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await h.heading('Overview');
    const list = await destinations();
    await expectDestinationsAsTheApiGivesThem(page, list);
    await destinationRow(page, 'crm').locator('.badge-open').waitFor();
    await expectNoA11yViolations(page, 'the Overview with destinations');
    watched.expectNoErrors([FAILED_LOAD(401)]); // the console asks the API before it has the key

    await h.go('#/destinations', 'Destinations');
    await page.getByTestId('refresh-status').filter({ hasText: '3 destinations' }).waitFor();
    await expectDestinationsAsTheApiGivesThem(page, list);
    await destinationRow(page, 'crm').getByText(/destination crm answered 503/).waitFor();
    await screenshot(page, 'destinations-configured');
    await expectNoA11yViolations(page, 'the Destinations page with destinations');

    // Its dead count leads to the dead letters of that destination: events that are themselves processed.
    await destinationRow(page, 'crm').getByRole('link', { name: String(MESSAGES) }).click();
    await h.heading('Dead letters: deliveries to crm');
    await h.rowCount(MESSAGES);
    await page.getByRole('button', { name: 'Count matching dead deliveries to crm (dry run)…' }).click();
    await page.getByTestId('bulk-status').getByText(`${MESSAGES} dead deliveries to crm match these filters`).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await screenshot(page, 'dead-letters-destination');
    await expectNoA11yViolations(page, 'the dead deliveries to crm');
    watched.expectNoErrors();
  }, 60_000);

  it('Event detail: per-destination deliveries and their timeline; a dead delivery to crm is replayed and becomes processed', async () => {
    const [key] = keys;
    await h.go(`#/events/${encodeURIComponent(key!)}`, `Event ${key}`);
    await page.locator('.fields').getByText('processed', { exact: true }).waitFor(); // the event is fanned out: processed
    const deliveries = page.getByRole('table', { name: 'Deliveries to destinations' });
    const delivery = (name: string) => deliveries.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    await delivery('bot').locator('.badge-processed').waitFor();
    await delivery('crm').locator('.badge-dead').waitFor();
    expect(await deliveries.locator('tbody tr').count()).toBe(2); // not to the disabled warehouse
    expect(await delivery('crm').locator('td').allInnerTexts()).toEqual([
      'dead', '2', expect.stringContaining('destination crm answered 503'), '—', '—', 'Replay delivery to crm',
    ]);
    expect((await delivery('bot').locator('td').allInnerTexts()).slice(0, 3)).toEqual(['processed', '1', '—']);

    const timeline = page.locator('.timeline');
    const entry = (kind: string, text: string) => timeline.locator(`li.tl-${kind}`).filter({ hasText: text });
    await entry('delivery', 'destination bot · attempt 1').waitFor();
    await entry('delivery-failed', 'destination crm · attempt 1').filter({ hasText: 'answered 503' }).waitFor();
    await entry('delivery-failed', 'destination crm · attempt 2').filter({ hasText: 'answered 503' }).waitFor();
    await entry('dead', 'destination crm').waitFor();
    expect(await entry('delivery', 'destination crm').count()).toBe(0);
    await screenshot(page, 'event-detail-destinations');
    await expectNoA11yViolations(page, 'an event’s detail with destination deliveries');

    crmUp = true; // crm answers 200 again; its circuit is still open, so the replay goes out as its next probe
    const crmBefore = downstream.requests.filter(to('crm')).length;
    await delivery('crm').getByRole('button', { name: 'Replay delivery to crm' }).click();
    await page.getByTestId('detail-message').getByText('Replay to crm: queued again.').waitFor();
    await delivery('crm').locator('.badge-processed').waitFor({ timeout: 20_000 }); // the page polls while it works
    await timeline.locator('li.tl-replayed').waitFor();
    await entry('delivery', 'destination crm · attempt 1').waitFor();
    expect(await delivery('crm').getByRole('button').count()).toBe(0);
    expect(await delivery('bot').locator('.badge-processed').count()).toBe(1);
    const crmAfter = downstream.requests.filter(to('crm')).slice(crmBefore);
    expect(crmAfter.map((r) => [r.headers['idempotency-key'], r.status])).toEqual([[key, 200]]); // the same key: the same effect, finished late
    expect(downstream.requests.filter(to('bot')).filter((r) => r.headers['idempotency-key'] === key)).toHaveLength(1);
    await screenshot(page, 'event-detail-destinations-replayed');
    watched.expectNoErrors();
  }, 60_000);

  it('Destinations page after the replay: crm closed again, one dead delivery fewer', async () => {
    const list = await eventually(destinations, (l) => l[1]?.state === 'closed');
    expect(list[1]).toMatchObject({ name: 'crm', state: 'closed', consecutiveFailures: 0, backlog: 0, dead: MESSAGES - 1 });
    await h.go('#/destinations', 'Destinations');
    await expectDestinationsAsTheApiGivesThem(page, list);
    await destinationRow(page, 'crm').locator('.badge-closed').waitFor();
    watched.expectNoErrors();
  }, 60_000);
});
