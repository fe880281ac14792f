import { metaText, uniqueId } from './support/payloads.js';
import { eventually } from './support/eventually.js';
import { metaSignature } from './support/signing.js';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * Issue 20, point 8: rejected webhook requests do not flood the log. Anyone can send them as fast as
 * they like; before, each wrote two warn lines (the rejection and its request-completed line).
 * Now the first is logged, the rest are counted per source, header and reason and reported in
 * one line a second at most, and no request-completed line is written for them at warn.
 */
let db: TestDatabase;
let service: ServiceProcess;

beforeAll(async () => {
  db = await createTestDatabase();
  service = await startServiceProcess({ DATABASE_URL: db.url, LOG_LEVEL: 'info', WEBHOOK_PROVIDERS: 'meta,wasender' });
});

afterAll(async () => {
  await service?.stop();
  await db?.drop();
});

type Line = { level: number; msg: string; res?: { statusCode: number } };
const lines = (): Line[] => service.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);

async function post(path: string, headers: Record<string, string>, body = JSON.stringify(metaText(uniqueId()))) {
  const res = await fetch(`${service.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.text();
  return res.status;
}

it('300 rejected webhook requests: a bounded number of lines, whose counts add up per source and reason', async () => {
  const sent = {
    'meta X-Hub-Signature-256 missing': 120,
    'meta X-Hub-Signature-256 mismatch': 100,
    'wasender X-Webhook-Signature mismatch': 80,
  };
  const started = performance.now();
  const requests = [
    ...Array.from({ length: sent['meta X-Hub-Signature-256 missing'] }, () => post('/webhook/meta', {})),
    ...Array.from({ length: sent['meta X-Hub-Signature-256 mismatch'] }, () => post('/webhook/meta', { 'x-hub-signature-256': metaSignature('other bytes') })),
    ...Array.from({ length: sent['wasender X-Webhook-Signature mismatch'] }, () =>
      post('/webhook/wasender', { 'x-webhook-signature': 'not-the-wasender-secret' }, JSON.stringify({ event: 'messages.upsert', data: {} })),
    ),
  ];
  const statuses = await Promise.all(requests);
  expect(statuses.every((status) => status === 401)).toBe(true);

  // Every rejection is accounted for: the first one in full, the others in the reports.
  const counted = () => {
    const counts: Record<string, number> = {};
    let individual = 0;
    for (const { msg } of lines()) {
      if (/^rejected an? \S+ webhook request: /.test(msg)) individual++;
      const report = /^rejected (\d+) more webhook request\(s\) since the last report \((.*)\)$/.exec(msg);
      if (report) for (const part of report[2].split('; ')) {
        const [key, n] = part.split(': ');
        counts[key] = (counts[key] ?? 0) + Number(n);
      }
    }
    return { counts, individual, total: individual + Object.values(counts).reduce((a, b) => a + b, 0) };
  };
  const { counts, individual } = await eventually(async () => counted(), (c) => c.total === 300);
  const seconds = Math.ceil((performance.now() - started) / 1000);
  expect(individual).toBe(1);
  // The first rejection was one of the kinds sent; the reports count the rest exactly.
  const firstKind = Object.keys(sent).find((key) => (counts[key] ?? 0) === sent[key as keyof typeof sent] - 1);
  expect(firstKind).toBeDefined();
  expect(counts).toEqual(Object.fromEntries(Object.entries(sent).map(([key, n]) => [key, key === firstKind ? n - 1 : n])));

  const rejectionLines = lines().filter((l) => l.msg.startsWith('rejected '));
  expect(rejectionLines.length).toBeLessThanOrEqual(2 + seconds); // the first, then at most one a second (before: 300 lines, and 300 more request lines)
  expect(lines().filter((l) => l.msg === 'request completed' && l.res?.statusCode === 401)).toEqual([]);
});
