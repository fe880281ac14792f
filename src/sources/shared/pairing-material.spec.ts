import fc from 'fast-check';
import { parseEvolutionBody } from '../evolution/evolution.parser.js';
import { PAIRING_REDACTED, withoutPairingMaterial } from './pairing-material.js';
import { parseWahaBody } from '../waha/waha.parser.js';
import { parseWasenderBody } from '../wasender/wasender.parser.js';

const QR = '2@y8PqEmmSecretQrString,AbCdEfGhIjKl==,MnOpQrStUv==';
const IMAGE = 'data:image/png;base64,iVBORw0KGgoSECRETIMAGE';
const PAIRING_CODE = 'WZYEH1YY';

describe('pairing material', () => {
  it("is neither stored nor forwarded from Evolution's qrcode.updated; the event is, and two refreshes stay two events", () => {
    const body = (qr: string) => ({ event: 'qrcode.updated', instance: 'sales', date_time: '2026-11-29T10:00:00.000Z', data: { qrcode: { instance: 'sales', pairingCode: PAIRING_CODE, code: qr, base64: IMAGE } } });
    const [event] = parseEvolutionBody(body(QR));
    expect(event).toMatchObject({ kind: 'other', type: 'qrcode.updated', tenant: 'sales', raw: { data: { qrcode: PAIRING_REDACTED } } });
    for (const secret of [QR, IMAGE, PAIRING_CODE]) expect(JSON.stringify(event)).not.toContain(secret);
    expect(parseEvolutionBody(body(`${QR}x`))[0]?.key).not.toBe(event?.key);
  });

  it("is removed from Evolution's connection.update while pairing, and creds.update keeps no data at all", () => {
    const [update] = parseEvolutionBody({ event: 'connection.update', instance: 'sales', data: { state: 'connecting', pairingCode: PAIRING_CODE } });
    expect(update?.raw.data).toEqual({ state: 'connecting', pairingCode: PAIRING_REDACTED });
    const [creds] = parseEvolutionBody({ event: 'CREDS_UPDATE', instance: 'sales', data: { noiseKey: { private: 'SECRETKEY' } } });
    expect(creds?.raw.data).toBe(PAIRING_REDACTED);
  });

  it("is neither stored nor forwarded from WASender's qrcode.updated, and the sessionId never", () => {
    const [event] = parseWasenderBody({ event: 'qrcode.updated', sessionId: 'SESSION-KEY', data: { qr: QR } });
    expect(event).toMatchObject({ kind: 'other', type: 'qrcode.updated', raw: { event: 'qrcode.updated', data: { qr: PAIRING_REDACTED } } });
    expect(JSON.stringify(event)).not.toContain(QR);
    expect(JSON.stringify(event)).not.toContain('SESSION-KEY');
  });

  it('is removed from WAHA session.status and engine.event should an engine add it', () => {
    const [status] = parseWahaBody({ id: 'evt_1', event: 'session.status', session: 'default', payload: { name: 'default', status: 'SCAN_QR_CODE', qr: QR } });
    expect(status?.raw.payload).toEqual({ name: 'default', status: 'SCAN_QR_CODE', qr: PAIRING_REDACTED });
    const [engine] = parseWahaBody({ id: 'evt_2', event: 'engine.event', session: 'default', payload: { event: 'qr', data: [{ qrCode: QR }] } });
    expect(JSON.stringify(engine?.raw)).not.toContain(QR);
  });

  it('leaves every other event alone, media base64 included', () => {
    const data = { key: { id: 'A' }, message: { imageMessage: { base64: IMAGE } }, code: 1 };
    expect(withoutPairingMaterial('evolution', 'messages.upsert', data)).toBe(data);
    expect(withoutPairingMaterial('waha', 'message', { qr: QR })).toEqual({ qr: QR });
  });

  it('keeps a __proto__ member as data', () => {
    const data = JSON.parse('{"__proto__": {"qr": "x"}, "qr": "y"}');
    const redacted = withoutPairingMaterial('wasender', 'qrcode.updated', data) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(JSON.stringify(redacted)).toBe(JSON.stringify({ ['__proto__']: { qr: PAIRING_REDACTED }, qr: PAIRING_REDACTED }));
  });
});

describe('pairing material, for any data', () => {
  const FIELDS = ['qr', 'qrcode', 'qrCode', 'qr_code', 'code', 'base64', 'pairingCode', 'pairing_code'];
  const SECRET = 'PAIRINGSECRET';
  /** JSON trees where a pairing field, at any depth, holds the secret (as text, or inside an object or a list). */
  const tree = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS, 'data', 'status', '__proto__'), fc.string()), tie('node'), { maxKeys: 4 }),
      fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(SECRET, { value: SECRET }, [SECRET]), tie('node')).map(([field, secret, rest]) => ({ [field]: secret, rest })),
    ),
  })).node;
  const stored = (parse: () => { raw: unknown }[]) => JSON.stringify(parse().map((event) => event.raw));

  it('never stores the secret of a pairing event, wherever it sits', () => {
    fc.assert(
      fc.property(tree, (data) => {
        expect(stored(() => parseEvolutionBody({ event: 'QRCODE_UPDATED', instance: 'sales', data: { qrcode: data, other: data } }))).not.toContain(SECRET);
        expect(stored(() => parseEvolutionBody({ event: 'connection.update', instance: 'sales', data }))).not.toContain(SECRET);
        expect(stored(() => parseWasenderBody({ event: 'qrcode.updated', data: { qr: data, data } }))).not.toContain(SECRET);
        for (const event of ['session.status', 'engine.event']) {
          expect(stored(() => parseWahaBody({ id: 'evt_1', event, session: 'default', payload: { data } }))).not.toContain(SECRET);
        }
      }),
      { numRuns: 300 },
    );
  });
});
