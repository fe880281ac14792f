import { metaText } from './support/payloads.js';
import { postWebhook, startTestApp, useServiceWithDatabase } from './support/test-app.js';

const KEY = 'inspection-key-0123456789';
const OLD_KEY = 'inspection-key-being-retired';
const ctx = useServiceWithDatabase({ INSPECTION_API_KEY: `${KEY},${OLD_KEY}` });
const status = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${ctx.service.baseUrl}${path}`, { headers })).status;

describe('with INSPECTION_API_KEY set', () => {
  const routes = ['/messages', '/messages/stats', '/messages/meta%3Amsg%3Ax', '/deliveries/wamid.x', '/destinations'];

  it.each(routes)('%s wants the bearer key', async (path) => {
    expect(await status(path)).toBe(401);
    expect(await status(path, { authorization: 'Bearer wrong-key-0123456789' })).toBe(401);
    expect(await status(path, { authorization: KEY })).toBe(401);
    expect([200, 404]).toContain(await status(path, { authorization: `Bearer ${KEY}` }));
    expect([200, 404]).toContain(await status(path, { authorization: `Bearer ${OLD_KEY}` })); // rotation: both keys work
  });

  it('says how to authenticate, and guards replay too', async () => {
    const bulk = await fetch(`${ctx.service.baseUrl}/messages/replay?dryRun=true`, { method: 'POST' });
    expect(bulk.status).toBe(401);
    const res = await fetch(`${ctx.service.baseUrl}/messages/x/replay`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await res.json()) as any).message).toMatch(/Authorization: Bearer/);
  });

  it('never guards the webhook routes', async () => {
    expect((await postWebhook(ctx.service.baseUrl, metaText())).status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('lists every route with its responses', async () => {
    const doc = (await (await fetch(`${ctx.service.baseUrl}/docs-json`)).json()) as any;
    const routes = Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(expect.arrayContaining([
      'GET /webhook', 'POST /webhook', 'GET /webhook/meta', 'POST /webhook/{source}', 'GET /messages', 'GET /messages/stats', 'GET /messages/{id}',
      'POST /messages/{id}/replay', 'POST /messages/replay', 'GET /deliveries/{wamid}', 'GET /destinations', 'GET /health', 'GET /health/ready', 'GET /metrics',
    ]));
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const success = Object.entries(operation.responses as Record<string, { description?: string }>).filter(([code]) => code.startsWith('2'));
        const documented = { summary: Boolean((operation as { summary?: string }).summary), success: success.some(([, r]) => Boolean(r.description)) };
        expect({ route: `${method} ${path}`, ...documented }).toEqual({ route: `${method} ${path}`, summary: true, success: true });
      }
    }
    expect(doc.paths['/webhook/{source}'].post.parameters[0]).toMatchObject({
      name: 'source', schema: { enum: ['meta', 'wasender', 'generic', 'twilio', '360dialog', 'waha', 'evolution'] },
    });
    expect(Object.keys(doc.paths['/webhook/{source}'].post.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(Object.keys(doc.paths['/webhook/{source}'].post.responses['200'].content)).toEqual(['application/json', 'text/xml']);
    expect(doc.paths['/webhook/evolution/{event}'].post.parameters[0]).toMatchObject({ name: 'event', in: 'path' });
    expect(Object.keys(doc.paths['/webhook/{source}'].post.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413', '415', '503']);
    // The webhook routes are described outside Nest's router (WebhookIngress): their schemas must resolve.
    for (const path of ['/webhook', '/webhook/{source}', '/webhook/evolution/{event}']) {
      const refs = Object.values(doc.paths[path].post.responses as Record<string, { content: { 'application/json': { schema: { $ref: string } } } }>)
        .map((r) => r.content['application/json'].schema.$ref.replace('#/components/schemas/', ''));
      expect(refs.every((name) => doc.components.schemas[name] !== undefined)).toBe(true);
    }
    expect(doc.components.schemas.WebhookAckDto.properties.events.type).toBe('array');
    expect(doc.components.schemas.EventResultDto.properties.result.enum).toEqual(['accepted', 'duplicate', 'stale']);
    expect(doc.paths['/deliveries/{wamid}'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['provider', 'tenant', 'wamid']);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/messages'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      ['cursor', 'destination', 'from', 'kind', 'limit', 'provider', 'since', 'status', 'tenant', 'type', 'until'],
    );
  });

  it('serves the UI at /docs', async () => {
    const res = await fetch(`${ctx.service.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/swagger-ui/i);
  });
});

describe('NODE_ENV=production', () => {
  it('refuses to start without INSPECTION_API_KEY', async () => {
    await expect(startTestApp({ DATABASE_URL: ctx.db.url, NODE_ENV: 'production' })).rejects.toThrow(/INSPECTION_API_KEY must be set/);
  });
});
