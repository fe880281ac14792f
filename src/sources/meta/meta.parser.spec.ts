import { parseMetaBody } from './meta.parser.js';

const metadata = { display_phone_number: '15550001111', phone_number_id: '1065' };

function metaBody(...entries: unknown[]) {
  return { object: 'whatsapp_business_account', entry: entries };
}

function entry(id: string, ...changes: unknown[]) {
  return { id, changes };
}

describe('parseMetaBody', () => {
  it('turns an inbound message into a message event keyed by its wamid, with its contact', () => {
    const contact = { profile: { name: 'Ana' }, wa_id: '16505551234' };
    const message = { from: '16505551234', id: 'wamid.A', timestamp: '1750031000', type: 'text', text: { body: 'hi' } };
    const [event, ...rest] = parseMetaBody(
      metaBody(entry('WABA1', { field: 'messages', value: { metadata, contacts: [contact], messages: [message] } })),
    );
    expect(rest).toHaveLength(0);
    expect(event).toEqual({
      key: 'meta:msg:wamid.A',
      source: 'meta',
      kind: 'message',
      type: 'text',
      sender: '16505551234',
      userId: null,
      tenant: '1065',
      providerTimestamp: new Date(1750031000 * 1000),
      fromMe: false,
      authenticated: false,
      raw: { field: 'messages', entryId: 'WABA1', metadata, contact, message, errors: null },
    });
  });

  it('keeps value.errors next to the message and a null contact when none matches', () => {
    const errors = [{ code: 131051, title: 'Message type unknown' }];
    const [event] = parseMetaBody(
      metaBody(entry('W', { field: 'messages', value: { contacts: [{ wa_id: 'other' }], errors, messages: [{ id: 'wamid.E', from: '1' }] } })),
    );
    expect(event?.raw).toMatchObject({ contact: null, errors });
    expect(event?.type).toBe('unknown');
  });

  it('keys each status by wamid and status value, lowercased, with the recipient as sender', () => {
    const statuses = [
      { id: 'wamid.S', status: 'sent', timestamp: '1750030000', recipient_id: '16505551234' },
      { id: 'wamid.S', status: 'DELIVERED', timestamp: '1750030001', recipient_id: '16505551234' },
    ];
    const events = parseMetaBody(metaBody(entry('W', { field: 'messages', value: { metadata, statuses } })));
    expect(events.map((e) => [e.key, e.kind, e.type, e.sender])).toEqual([
      ['meta:status:wamid.S:sent', 'status', 'sent', '16505551234'],
      ['meta:status:wamid.S:delivered', 'status', 'delivered', '16505551234'],
    ]);
    expect(events[0]?.raw).toEqual({ field: 'messages', entryId: 'W', metadata, status: statuses[0] });
  });

  it('adds the group participant to status keys so each member’s read counts once', () => {
    const status = (participant: string) => ({
      id: 'wamid.G', status: 'read', recipient_id: 'group-1', recipient_type: 'group', recipient_participant_id: participant,
    });
    const events = parseMetaBody(metaBody(entry('W', { field: 'messages', value: { statuses: [status('111'), status('222')] } })));
    expect(events.map((e) => e.key)).toEqual(['meta:status:wamid.G:read:111', 'meta:status:wamid.G:read:222']);
  });

  it('reads call statuses under the calls field like message statuses', () => {
    const statuses = [{ id: 'wacid.C', type: 'call', status: 'RINGING', recipient_id: '1', timestamp: '1671644824' }];
    const [event] = parseMetaBody(metaBody(entry('W', { field: 'calls', value: { statuses } })));
    expect(event).toMatchObject({ key: 'meta:status:wacid.C:ringing', kind: 'status', type: 'ringing' });
  });

  it('walks every entry and change of a batch, in body order', () => {
    const body = metaBody(
      entry('W1',
        { field: 'messages', value: { messages: [{ id: 'wamid.1' }, { id: 'wamid.2' }] } },
        { field: 'messages', value: { statuses: [{ id: 'wamid.0', status: 'read' }] } }),
      entry('W2', { field: 'messages', value: { messages: [{ id: 'wamid.3' }], statuses: [{ id: 'wamid.1', status: 'sent' }] } }),
    );
    expect(parseMetaBody(body).map((e) => e.key)).toEqual([
      'meta:msg:wamid.1', 'meta:msg:wamid.2', 'meta:status:wamid.0:read', 'meta:msg:wamid.3', 'meta:status:wamid.1:sent',
    ]);
  });

  describe('changes without messages or statuses', () => {
    const templateChange = {
      field: 'message_template_status_update',
      value: { event: 'APPROVED', message_template_id: 12, message_template_name: 'hello' },
    };
    const bodyWith = (change: unknown, time = 1751247548) => metaBody({ id: 'W', time, changes: [change] });

    it('become one other event typed by the field, keyed by a hash of the change', () => {
      const [event, ...rest] = parseMetaBody(bodyWith(templateChange));
      expect(rest).toHaveLength(0);
      expect(event).toMatchObject({ kind: 'other', type: 'message_template_status_update', sender: null });
      expect(event?.key).toMatch(/^meta:other:[0-9a-f]{64}$/);
      expect(event?.providerTimestamp).toEqual(new Date(1751247548 * 1000));
      expect(event?.raw).toEqual({ field: templateChange.field, entryId: 'W', entryTime: 1751247548, value: templateChange.value });
    });

    it('give an identical redelivery the same key, even with its keys reordered', () => {
      const reordered = { value: { message_template_name: 'hello', message_template_id: 12, event: 'APPROVED' }, field: templateChange.field };
      expect(parseMetaBody(bodyWith(reordered))[0]?.key).toBe(parseMetaBody(bodyWith(templateChange))[0]?.key);
    });

    it('give a changed notification a different key', () => {
      const original = parseMetaBody(bodyWith(templateChange))[0]?.key;
      const rejected = { ...templateChange, value: { ...templateChange.value, event: 'REJECTED' } };
      expect(parseMetaBody(bodyWith(rejected))[0]?.key).not.toBe(original);
      expect(parseMetaBody(bodyWith(templateChange, 1751247549))[0]?.key).not.toBe(original);
    });

    it('cover calls, echoes, preferences and errors-only values, naming the sole contact as sender', () => {
      const contacts = [{ wa_id: '972987654321' }];
      const changes = [
        { field: 'calls', value: { contacts, calls: [{ id: 'wacid.X', event: 'connect' }] } },
        { field: 'smb_message_echoes', value: { message_echoes: [{ id: 'wamid.echo' }] } },
        { field: 'user_preferences', value: { user_preferences: [{ wa_id: '1', value: 'stop' }] } },
        { field: 'messages', value: { errors: [{ code: 131000 }] } },
      ];
      const events = parseMetaBody(metaBody(entry('W', ...changes)));
      expect(events.map((e) => [e.kind, e.type, e.sender])).toEqual([
        ['other', 'calls', '972987654321'],
        ['other', 'smb_message_echoes', null],
        ['other', 'user_preferences', null],
        ['other', 'messages', null],
      ]);
      expect(new Set(events.map((e) => e.key)).size).toBe(4);
    });
  });

  describe('changes whose messages and statuses all lack a usable id or status', () => {
    it('become one other event of the change, like any other notification', () => {
      const value = { metadata, messages: [{ from: '1', type: 'text' }, { id: 7 }], statuses: [{ status: 'read' }, { id: 'wamid.S' }] };
      const [event, ...rest] = parseMetaBody(metaBody({ id: 'W', time: 1751247548, changes: [{ field: 'messages', value }] }));
      expect(rest).toHaveLength(0);
      expect(event).toMatchObject({ source: 'meta', kind: 'other', type: 'messages', providerTimestamp: new Date(1751247548 * 1000) });
      expect(event?.key).toMatch(/^meta:other:[0-9a-f]{64}$/);
      expect(event?.raw).toEqual({ field: 'messages', entryId: 'W', entryTime: 1751247548, value });
    });

    it('leave the other changes of the body as they are', () => {
      const events = parseMetaBody(metaBody(entry('W',
        { field: 'messages', value: { messages: [{ id: 'wamid.A' }] } },
        { field: 'messages', value: { statuses: [{ recipient_id: '1' }] } },
      )));
      expect(events.map((e) => [e.kind, e.key.split(':')[1]])).toEqual([['message', 'msg'], ['other', 'other']]);
    });
  });

  it('skips items without a usable id or status and never throws on odd shapes', () => {
    const body = metaBody(
      null, 5, { id: 'W' }, { changes: 'nope' }, { changes: [null, 7] },
      entry('W', {
        field: 'messages',
        value: {
          contacts: null,
          messages: [null, 3, {}, { id: '' }, { id: 42 }, { id: '   ' }, { id: 'wamid.ok', from: 5, timestamp: 'soon' }],
          statuses: [{ id: 'wamid.x' }, { status: 'read' }, { id: 'wamid.x', status: 7 }],
        },
      }),
    );
    const events = parseMetaBody(body);
    expect(events.map((e) => e.key)).toEqual(['meta:msg:wamid.ok']);
    expect(events[0]).toMatchObject({ sender: '5', providerTimestamp: null });
    expect(parseMetaBody({ object: 'whatsapp_business_account' })).toEqual([]);
  });
});

describe('parseMetaBody: business-scoped user ids, tenants, 360dialog', () => {
  const metadata = { display_phone_number: '15550001111', phone_number_id: '106540352242922' };
  const change = (value: Record<string, unknown>) => metaBody(entry('W', { field: 'messages', value: { metadata, ...value } }));

  it('names the other party by its BSUID when the phone number is withheld, by both when both are sent; the key is the wamid either way', () => {
    const withheld = { profile: { username: 'ana' }, user_id: 'US.13491208655302741918' };
    const [onlyId] = parseMetaBody(change({ contacts: [withheld], messages: [{ from_user_id: 'US.13491208655302741918', id: 'wamid.U', type: 'text' }] }));
    expect(onlyId).toMatchObject({ key: 'meta:msg:wamid.U', sender: 'US.13491208655302741918', userId: 'US.13491208655302741918', tenant: '106540352242922' });
    expect(onlyId.raw.contact).toEqual(withheld);
    const [both] = parseMetaBody(change({ messages: [{ from: '16505551234', from_user_id: 'US.1', id: 'wamid.B', type: 'text' }] }));
    expect(both).toMatchObject({ key: 'meta:msg:wamid.B', sender: '16505551234', userId: 'US.1' });
  });

  it("names the sender by the change's only contact's user_id when the message carries neither from nor from_user_id", () => {
    const contact = { profile: { username: 'ana' }, user_id: 'US.13491208655302741918' };
    const [event] = parseMetaBody(change({ contacts: [contact], messages: [{ id: 'wamid.C', type: 'text' }] }));
    expect(event).toMatchObject({ key: 'meta:msg:wamid.C', sender: 'US.13491208655302741918', userId: 'US.13491208655302741918' });
    expect(event.raw.contact).toEqual(contact);
    // With several contacts none of them is plainly the sender.
    const [ambiguous] = parseMetaBody(change({ contacts: [contact, { user_id: 'US.2' }], messages: [{ id: 'wamid.D', type: 'text' }] }));
    expect(ambiguous).toMatchObject({ sender: null, userId: null });
  });

  it('reads the recipient of a status the same way', () => {
    const [event] = parseMetaBody(change({ statuses: [{ id: 'wamid.S', status: 'read', recipient_user_id: 'BR.77', timestamp: '1750030075' }] }));
    expect(event).toMatchObject({ key: 'meta:status:wamid.S:read', sender: 'BR.77', userId: 'BR.77', tenant: '106540352242922' });
  });

  it('keys 360dialog events in their own namespace, with the same rules', () => {
    const body = change({ messages: [{ from: '1', id: 'wamid.D', type: 'text' }], statuses: [{ id: 'wamid.D', status: 'sent', recipient_id: '1' }] });
    const events = parseMetaBody(body, '360dialog');
    expect(events.map((e) => [e.key, e.source, e.tenant])).toEqual([
      ['360dialog:msg:wamid.D', '360dialog', '106540352242922'],
      ['360dialog:status:wamid.D:sent', '360dialog', '106540352242922'],
    ]);
    expect(parseMetaBody(metaBody(entry('W', { field: 'account_update', value: {} })), '360dialog')[0].key).toMatch(/^360dialog:other:/);
  });
});
