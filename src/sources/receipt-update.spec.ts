import { receiptUpdateOf, MAX_ERROR_LENGTH, TENANT_SCOPED_RECEIPTS } from './receipt-update.js';
import { detectSource, type SourceName } from './source-registry.js';
import { parseEvolutionBody } from './evolution/evolution.parser.js';
import { parseGenericBody } from './generic/generic.parser.js';
import { parseMetaBody } from './meta/meta.parser.js';
import type { NormalizedEvent } from './shared/normalized-event.js';
import type { JsonObject } from './shared/payload-values.js';
import { parseWahaBody } from './waha/waha.parser.js';
import { parseWasenderBody } from './wasender/wasender.parser.js';

/** The first event the real parsers make of a body: the spec checks the mapping on their output. */
const PARSERS: Record<Extract<SourceName, 'meta' | 'wasender' | 'generic' | 'waha' | 'evolution'>, (body: JsonObject) => NormalizedEvent[]> = {
  meta: parseMetaBody, wasender: parseWasenderBody, generic: parseGenericBody, waha: parseWahaBody, evolution: parseEvolutionBody,
};
const updateOf = (body: JsonObject) => receiptUpdateOf(PARSERS[detectSource(body) as keyof typeof PARSERS](body)[0]!);

const metaChange = (field: string, value: unknown) => ({ object: 'whatsapp_business_account', entry: [{ id: 'W', changes: [{ field, value }] }] });
const metaStatus = (status: Record<string, unknown>) => metaChange('messages', { metadata: { phone_number_id: '1' }, statuses: [status] });
const metaOut = (status: string, extra: Record<string, unknown> = {}) =>
  metaStatus({ id: 'wamid.OUT', status, timestamp: '1750030075', recipient_id: '16505551234', ...extra });

const wasender = (event: string, data: unknown) => ({ event, sessionId: 'SECRET', data, timestamp: 1750031010123 });
const wasenderUpdate = (status: unknown) =>
  wasender('messages.update', { key: { id: '3EB0OUT', remoteJid: '16505551234@s.whatsapp.net', fromMe: true }, update: { status } });

const genericStatus = (fields: Record<string, unknown>) => ({ event: 'message.status', id: 'G1', timestamp: 1750030075, from: '1555', ...fields });

describe('receiptUpdateOf', () => {
  describe('Meta statuses', () => {
    it.each(['sent', 'delivered', 'read', 'played'])('maps %s with the wamid, recipient and time', (status) => {
      expect(updateOf(metaOut(status))).toEqual({
        wamid: 'wamid.OUT', source: 'meta', tenant: '', recipient: '16505551234', status, at: new Date(1750030075 * 1000), error: null,
      });
    });

    it('lowercases the status (the parser does) before mapping', () => {
      expect(updateOf(metaOut('READ'))?.status).toBe('read');
    });

    it('keeps the first error of a failed status as code, title and details', () => {
      const errors = [
        { code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'Recipient is not on WhatsApp.' } },
        { code: 1, title: 'ignored' },
      ];
      expect(updateOf(metaOut('failed', { errors }))).toMatchObject({
        status: 'failed', error: '131026 Message undeliverable: Recipient is not on WhatsApp.',
      });
    });

    it('falls back to the error message, and does not repeat it when it is the title', () => {
      const withMessage = [{ code: 131047, title: 'Re-engagement message', message: 'More than 24 hours have passed' }];
      expect(updateOf(metaOut('failed', { errors: withMessage }))?.error).toBe('131047 Re-engagement message: More than 24 hours have passed');
      const sameAsTitle = [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable' }];
      expect(updateOf(metaOut('failed', { errors: sameAsTitle }))?.error).toBe('131026 Message undeliverable');
    });

    it('bounds the error text', () => {
      const errors = [{ code: 131000, title: 'Something went wrong', error_data: { details: 'x'.repeat(5000) } }];
      const error = updateOf(metaOut('failed', { errors }))?.error ?? '';
      expect(Array.from(error)).toHaveLength(MAX_ERROR_LENGTH);
      expect(error.startsWith('131000 Something went wrong: xxx')).toBe(true);
    });

    it('has a null error for a failed status without errors, or with unreadable ones', () => {
      expect(updateOf(metaOut('failed'))).toMatchObject({ status: 'failed', error: null });
      expect(updateOf(metaOut('failed', { errors: [{}] }))?.error).toBeNull();
      expect(updateOf(metaOut('failed', { errors: 'boom' }))?.error).toBeNull();
    });

    it('ignores errors on statuses that are not failed', () => {
      expect(updateOf(metaOut('sent', { errors: [{ code: 1, title: 'odd' }] }))?.error).toBeNull();
    });

    it.each(['deleted', 'warning', 'pending', 'something_new'])('is null for %s', (status) => {
      expect(updateOf(metaOut(status))).toBeNull();
    });

    it('has a null time when Meta sends none', () => {
      expect(updateOf(metaStatus({ id: 'wamid.T', status: 'read' }))).toMatchObject({ at: null, recipient: null });
    });
  });

  describe('WASender messages.update', () => {
    it.each([
      [2, 'sent'],
      [3, 'delivered'],
      [4, 'read'],
      [5, 'played'],
      [0, 'failed'],
      ['ERROR', 'failed'],
      ['delivered', 'delivered'],
    ])('maps status %p to %s', (code, status) => {
      expect(updateOf(wasenderUpdate(code))).toEqual({
        wamid: '3EB0OUT', source: 'wasender', tenant: '', recipient: '16505551234', status, at: new Date(1750031010123), error: null,
      });
    });

    it.each([1, 'pending', 6, '9', 'deleted'])('is null for %p', (code) => {
      expect(updateOf(wasenderUpdate(code))).toBeNull();
    });
  });

  describe('WASender message-receipt.update', () => {
    const receipt = (stamps: Record<string, unknown>) => ({ userJid: '111@s.whatsapp.net', ...stamps });

    it('reads the id under data.message.key and the participant as recipient', () => {
      const body = wasender('message-receipt.update', {
        message: { key: { id: 'GMSG', remoteJid: 'g1@g.us', fromMe: true }, receipt: receipt({ readTimestamp: 1750031100 }) },
      });
      expect(updateOf(body)).toEqual({
        wamid: 'GMSG', source: 'wasender', tenant: '', recipient: '111', status: 'read', at: new Date(1750031100 * 1000), error: null,
      });
    });

    it('reads the id under data.key too', () => {
      const body = wasender('message-receipt.update', { key: { id: 'FLAT' }, receipt: receipt({ playedTimestamp: 1750031300 }) });
      expect(updateOf(body)).toMatchObject({ wamid: 'FLAT', status: 'played' });
      const delivered = wasender('message-receipt.update', { key: { id: 'FLAT' }, receipt: receipt({ receiptTimestamp: 1750031000 }) });
      expect(updateOf(delivered)).toMatchObject({ wamid: 'FLAT', status: 'delivered', at: new Date(1750031000 * 1000) });
    });
  });

  describe('generic statuses', () => {
    it('reads the status field, whatever the type says', () => {
      expect(updateOf(genericStatus({ status: 'DELIVERED', type: 'text' }))).toEqual({
        wamid: 'G1', source: 'generic', tenant: '', recipient: '1555', status: 'delivered', at: new Date(1750030075 * 1000), error: null,
      });
    });

    it('takes messageId (and numeric ids) when there is no id', () => {
      expect(updateOf(genericStatus({ id: undefined, messageId: 42, status: 'failed' }))).toMatchObject({ wamid: '42', status: 'failed', error: null });
    });

    it.each([
      ['an unknown status', { status: 'queued' }],
      ['no status', {}],
      ["WASender's error name, which only WASender uses for failed", { status: 'error' }],
    ])('is null for %s', (_name, fields) => {
      expect(updateOf(genericStatus(fields))).toBeNull();
    });

    it('is null without a message id (a body keyed by sender and time)', () => {
      expect(updateOf(genericStatus({ id: undefined, status: 'read' }))).toBeNull();
    });
  });

  describe('events that are not statuses', () => {
    it.each([
      ['a Meta message', metaChange('messages', { messages: [{ id: 'wamid.IN', type: 'text', from: '16505551234' }] })],
      ['a Meta template notification', metaChange('message_template_status_update', { event: 'APPROVED' })],
      ['a WASender message', wasender('messages.received', { messages: { key: { id: 'IN1', fromMe: false } } })],
      ['a WASender session event', wasender('session.status', { status: 'connected' })],
      ['a generic message carrying a status field', { event: 'message', id: 'G2', status: 'read' }],
    ])('is null for %s', (_name, body) => {
      expect(updateOf(body)).toBeNull();
    });
  });
});

describe('receiptUpdateOf: whose record', () => {
  const evolutionUpdate = (instance: string) => parseEvolutionBody({
    event: 'messages.update', instance, data: { keyId: 'SAMEID', remoteJid: '5511987654321@s.whatsapp.net', fromMe: true, status: 'READ' },
  })[0]!;

  it("keys a gateway's record by its tenant: the same id from two instances is two records", () => {
    expect(receiptUpdateOf(evolutionUpdate('sales'))).toMatchObject({ wamid: 'SAMEID', source: 'evolution', tenant: 'sales' });
    expect(receiptUpdateOf(evolutionUpdate('support'))).toMatchObject({ wamid: 'SAMEID', source: 'evolution', tenant: 'support' });
    expect([...TENANT_SCOPED_RECEIPTS].sort()).toEqual(['evolution', 'waha', 'wasender']);
  });
});
