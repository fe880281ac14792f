import { readFileSync } from 'node:fs';
import type { Posted } from './test-app.js';

/** One of test/fixtures/twilio/*.txt as Twilio posts it: the exact bytes, and its parameters. */
export function twilioFixture(name: string, changes: Record<string, string> = {}): { raw: string; params: Record<string, string> } {
  const params = new URLSearchParams(readFileSync(new URL(`../fixtures/twilio/${name}.txt`, import.meta.url), 'utf8'));
  for (const [key, value] of Object.entries(changes)) params.set(key, value);
  return { raw: params.toString(), params: Object.fromEntries(params) };
}

/** POSTs a form body (Twilio's webhooks) with the given headers; the answer as text. */
export async function postForm(baseUrl: string, path: string, raw: string, headers: Record<string, string> = {}): Promise<Posted<string> & { contentType: string | null }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: raw,
  });
  return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') };
}
