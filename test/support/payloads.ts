import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** A copy of one of test/fixtures/*.json. */
export function fixture(name: string): any {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8'));
}

export const uniqueId = (prefix = 'wamid.TEST') => `${prefix}.${randomUUID()}`;

/** A Meta webhook request with one inbound text message of the given wamid. */
export function metaText(wamid = uniqueId(), body = 'hello'): any {
  const payload = fixture('meta_inbound_text');
  const message = payload.entry[0].changes[0].value.messages[0];
  message.id = wamid;
  message.text.body = body;
  return payload;
}

/** A Meta webhook request of `count` updates spread over entries and changes (every 10th a status). */
export function metaBatch(count: number, prefix = uniqueId('wamid.BATCH')): { payload: any; keys: string[] } {
  const keys: string[] = [];
  const entries = [];
  const perChange = 50;
  for (let start = 0; start < count; start += perChange * 2) {
    const changes = [];
    for (let c = start; c < Math.min(count, start + perChange * 2); c += perChange) {
      const messages = [];
      const statuses = [];
      for (let i = c; i < Math.min(count, c + perChange); i++) {
        const id = `${prefix}.${i}`;
        if (i % 10 === 9) {
          statuses.push({ id, status: 'delivered', timestamp: '1750030075', recipient_id: '16505551234' });
          keys.push(`meta:status:${id}:delivered`);
        } else {
          messages.push({ from: '16505551234', id, timestamp: '1750031000', type: 'text', text: { body: `m${i}` } });
          keys.push(`meta:msg:${id}`);
        }
      }
      changes.push({ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1' }, messages, statuses } });
    }
    entries.push({ id: '102290129340398', changes });
  }
  return { payload: { object: 'whatsapp_business_account', entry: entries }, keys };
}
