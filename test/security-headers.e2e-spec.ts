import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { metaText, uniqueId } from './support/payloads.js';
import { metaSignature } from './support/signing.js';
import { useServiceWithDatabase } from './support/test-app.js';
import { CONSOLE_DIR } from '../src/operator-console/serve-console.js';

/**
 * Issue 20, points 4 and 8: every answer carries the standard security headers, whether Express
 * (through helmet) or the webhook ingress (outside Express) wrote it, success or error.
 */
const API_KEY = 'inspection-key-for-security-headers';
const VERIFY_TOKEN = 'verify-token-for-security-headers';
const ctx = useServiceWithDatabase({ INSPECTION_API_KEY: API_KEY, WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN });

const signedMeta = () => {
  const raw = JSON.stringify(metaText(uniqueId()));
  return { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw) }, body: raw };
};
const auth = { headers: { authorization: `Bearer ${API_KEY}` } };

const answers: Array<[string, string, RequestInit, number]> = [
  ['the API', '/messages', auth, 200],
  ['an API error (401 without the key)', '/messages', {}, 401],
  ['a 404', '/nonexistent', {}, 404],
  ['a POST to an unknown route', '/nonexistent', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }, 404],
  ['/health', '/health', {}, 200],
  ['/metrics', '/metrics', {}, 200],
  ['the OpenAPI document', '/docs-json', {}, 200],
  ["Meta's handshake (GET /webhook?hub.challenge=)", `/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=%3Cscript%3E`, {}, 200],
  ['a refused handshake', '/webhook?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=x', {}, 403],
  ["the ingress's 200", '/webhook/meta', signedMeta(), 200],
  ["the ingress's 401", '/webhook/meta', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }, 401],
  ["the ingress's 400 (POST /webhook)", '/webhook', { method: 'POST', body: 'not json', headers: { 'content-type': 'application/json' } }, 400],
  ["the ingress's 404", '/webhook/nosuchsource', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }, 404],
];

describe('security headers on every kind of answer', () => {
  it.each(answers)('%s', async (_name, path, init, status) => {
    const res = await fetch(`${ctx.service.baseUrl}${path}`, init);
    await res.arrayBuffer();
    expect(res.status).toBe(status);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
    expect(res.headers.get('strict-transport-security')).toBeNull(); // the TLS-terminating proxy's to set
  });

  it('the challenge echoed by the handshake is plain text that no browser may sniff into HTML', async () => {
    const res = await fetch(`${ctx.service.baseUrl}/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=%3Cscript%3E`);
    expect(await res.text()).toBe('<script>');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('Swagger UI at /docs: the headers, and a CSP its page works under (no inline script, its own files only)', async () => {
    const res = await fetch(`${ctx.service.baseUrl}/docs`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/src="/); // an inline script would be blocked by script-src 'self'
      expect(inline.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attributes)![1];
      const asset = await fetch(new URL(src, `${ctx.service.baseUrl}/docs`));
      await asset.arrayBuffer();
      expect(asset.status).toBe(200); // served from this origin
    }
  });

  it('the operator console keeps its own, stricter CSP (or, not built, its 503 has the API headers)', async () => {
    const built = existsSync(join(CONSOLE_DIR, 'index.html'));
    const res = await fetch(`${ctx.service.baseUrl}/console/`);
    await res.text();
    expect(res.status).toBe(built ? 200 : 503);
    expect(res.headers.get('content-security-policy')).toMatch(built ? /^default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'/ : /^default-src 'none';/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});
