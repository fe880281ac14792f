import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

/**
 * Runs every Meta sample of another project's test suite (pywa) through the service. The
 * corpus lives in ../shared beside the clone (as in CI); without it this file says so and skips,
 * except under CI=true, where it fails. Every sample is signed with the test app secret and
 * posted to /webhook/meta, so the corpus runs with signatures on.
 */
const CORPUS = fileURLToPath(new URL('../../shared/peer-corpus/pywa', import.meta.url));
const present = existsSync(CORPUS);
// CI always has the corpus beside the clone: there a missing corpus is a failure, never a skip.
if (!present && process.env.CI === 'true') throw new Error(`peer corpus not found at ${CORPUS}, and CI=true: it must be there`);
if (!present) console.warn(`peer corpus not found at ${CORPUS}: skipping its samples`);

const samples: [string, unknown][] = present
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith('.json'))
      .flatMap((file) => Object.entries(JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as Record<string, unknown>).map(([name, body]) => [`${file}:${name}`, body] as [string, unknown]))
  : [];

/** The samples reuse placeholder ids; give each id a fresh value, consistently within a sample. */
function withFreshIds(body: unknown): any {
  const fresh = new Map<string, string>();
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (k !== 'id' || typeof v !== 'string') return [k, walk(v)];
        if (!fresh.has(v)) fresh.set(v, `${v}.${randomUUID()}`);
        return [k, fresh.get(v)];
      }),
    );
  };
  return walk(body);
}

const ctx = useServiceWithDatabase();

(present ? describe : describe.skip)('the pywa peer corpus', () => {
  it('holds the 74 samples it documents', () => {
    expect(samples).toHaveLength(74);
  });

  it.each(samples)('%s: answered 200 with each message and status claimed, then duplicate on redelivery', async (_name, sample) => {
    const body = withFreshIds(sample);
    const values = body.entry.flatMap((e: any) => e.changes.map((c: any) => c.value));
    const messageKeys = values.flatMap((v: any) => (v.messages ?? []).map((m: any) => `meta:msg:${m.id}`));
    const statusIds = values.flatMap((v: any) => (v.statuses ?? []).map((s: any) => s.id));

    const first = await postWebhook(ctx.service.baseUrl, body, {}, { path: '/webhook/meta' });
    expect(first.status).toBe(200);
    expect(first.body.events.length).toBeGreaterThan(0);
    expect(first.body.duplicates).toBe(0);
    const ids = first.body.events.map((e) => e.id);
    for (const key of messageKeys) expect(ids).toContain(key);
    for (const id of statusIds) expect(ids.some((key) => key.startsWith(`meta:status:${id}:`))).toBe(true);
    const rows = await ctx.db.query('SELECT message_id FROM messages WHERE message_id = ANY($1) AND authenticated', [ids]);
    expect(rows).toHaveLength(ids.length);

    const again = await postWebhook(ctx.service.baseUrl, body, {}, { path: '/webhook/meta' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: ids.length });
  });
});
