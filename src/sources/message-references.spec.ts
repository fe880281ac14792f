import fs from 'node:fs';
import { parseEvolutionBody } from './evolution/evolution.parser.js';
import { referencedMessageKey } from './message-references.js';
import { parseMetaBody } from './meta/meta.parser.js';
import { parseWahaBody } from './waha/waha.parser.js';

const fixture = (name: string) => JSON.parse(fs.readFileSync(new URL(`../../test/fixtures/${name}.json`, import.meta.url), 'utf8'));
const meta = (value: Record<string, unknown>) => ({ object: 'whatsapp_business_account', entry: [{ id: 'W', changes: [{ field: 'messages', value: { metadata: { phone_number_id: '1' }, ...value } }] }] });

describe('referencedMessageKey', () => {
  it('gives the key of the message a Meta reaction is about, in the source’s namespace', () => {
    const body = meta({ messages: [{ from: '1555', id: 'wamid.R', type: 'reaction', reaction: { message_id: 'wamid.M', emoji: '👍' } }] });
    expect(referencedMessageKey(parseMetaBody(body)[0])).toBe('meta:msg:wamid.M');
    expect(referencedMessageKey(parseMetaBody(body, '360dialog')[0])).toBe('360dialog:msg:wamid.M');
    expect(referencedMessageKey(parseMetaBody(meta({ messages: [{ from: '1555', id: 'wamid.T', type: 'text' }] }))[0])).toBeNull();
  });

  it('gives a status the key of its message (a gateway’s own messages are events too), scoped by session or instance', () => {
    const ack = parseWahaBody(fixture('waha/message_ack_read'))[0];
    expect(referencedMessageKey(ack)).toBe(`waha:${ack.tenant}:msg:${(ack.raw.payload as { id: string }).id}`);
    const update = parseEvolutionBody(fixture('evolution/messages_update_read'))[0];
    expect(referencedMessageKey(update)).toBe('evolution:loja-centro:msg:3EB0C5A2F1D4B7E9A06F12');
    expect(referencedMessageKey(parseMetaBody(meta({ statuses: [{ id: 'wamid.O', status: 'read', recipient_id: '1555' }] }))[0])).toBe('meta:msg:wamid.O');
  });

  it('reads WAHA and Evolution reactions', () => {
    const waha = fixture('waha/message_reaction');
    const [event] = parseWahaBody(waha);
    expect(referencedMessageKey(event)).toBe(`waha:${waha.session}:msg:${waha.payload.reaction.messageId}`);
    const evolution = fixture('evolution/messages_upsert_text_inbound');
    evolution.data.message = { reactionMessage: { key: { id: 'TARGET1' }, text: '👍' } };
    evolution.data.key.id = 'REACTION1';
    expect(referencedMessageKey(parseEvolutionBody(evolution)[0])).toBe('evolution:loja-centro:msg:TARGET1');
  });

  it('gives Meta edits and deletions the key of the message they change (peer corpus shapes)', () => {
    const edit = meta({ messages: [{ from: '1555', id: 'wamid.E', type: 'edit', edit: { original_message_id: 'wamid.M', message: { type: 'text', text: { body: 'fixed' } } } }] });
    expect(referencedMessageKey(parseMetaBody(edit)[0])).toBe('meta:msg:wamid.M');
    const revoke = meta({ messages: [{ from: '1555', id: 'wamid.D', type: 'revoke', revoke: { original_message_id: 'wamid.M' } }] });
    expect(referencedMessageKey(parseMetaBody(revoke)[0])).toBe('meta:msg:wamid.M');
  });

  it('gives Baileys edits and deletions (protocolMessage, bare or in editedMessage) the key of their target', () => {
    const evolution = fixture('evolution/messages_upsert_text_inbound');
    evolution.data.key.id = 'EDIT1';
    evolution.data.message = { editedMessage: { message: { protocolMessage: { key: { id: 'TARGET2' }, type: 'MESSAGE_EDIT', editedMessage: { conversation: 'fixed' } } } } };
    expect(referencedMessageKey(parseEvolutionBody(evolution)[0])).toBe('evolution:loja-centro:msg:TARGET2');
    evolution.data.message = { protocolMessage: { key: { id: 'TARGET3' }, type: 'REVOKE' } };
    expect(referencedMessageKey(parseEvolutionBody(evolution)[0])).toBe('evolution:loja-centro:msg:TARGET3');
    evolution.data.message = { protocolMessage: { type: 'EPHEMERAL_SETTING', ephemeralExpiration: 0 } };
    expect(referencedMessageKey(parseEvolutionBody(evolution)[0])).toBeNull();
  });
});
