import { wahaMessageType } from './waha-message-type.js';

describe('wahaMessageType', () => {
  it('reads WEBJS `_data.type` in the shared vocabulary, other WEBJS types as reported', () => {
    expect(wahaMessageType({ _data: { type: 'chat' } })).toBe('text');
    expect(wahaMessageType({ _data: { type: 'ptt' } })).toBe('audio');
    expect(wahaMessageType({ _data: { type: 'multi_vcard' } })).toBe('contacts');
    expect(wahaMessageType({ _data: { type: 'image' } })).toBe('image');
    expect(wahaMessageType({ _data: { type: 'E2E_NOTIFICATION' } })).toBe('e2e_notification');
  });

  it('reads the Baileys message of NOWEB and whatsmeow’s MessageInfo of GOWS', () => {
    expect(wahaMessageType({ _data: { message: { ephemeralMessage: { message: { documentMessage: {} } } } } })).toBe('document');
    expect(wahaMessageType({ _data: { message: { conversation: 'hi' } } })).toBe('text');
    expect(wahaMessageType({ _data: { Info: { Type: 'media', MediaType: 'ptt' } } })).toBe('audio');
    expect(wahaMessageType({ _data: { Info: { Type: 'media', MediaType: 'sticker' } } })).toBe('sticker');
    expect(wahaMessageType({ _data: { Info: { Type: 'poll', MediaType: '' } } })).toBe('poll');
  });

  it('falls back on WAHA’s own fields', () => {
    expect(wahaMessageType({ hasMedia: true, media: { mimetype: 'video/mp4' } })).toBe('video');
    expect(wahaMessageType({ hasMedia: true, media: { mimetype: 'application/pdf' } })).toBe('document');
    expect(wahaMessageType({ hasMedia: true, media: null })).toBe('media');
    expect(wahaMessageType({ hasMedia: false, body: 'Hi there!' })).toBe('text');
    expect(wahaMessageType({ hasMedia: false, body: '' })).toBe('unknown');
    expect(wahaMessageType({ _data: { Info: { Type: 'media' } }, hasMedia: true })).toBe('media');
  });
});
