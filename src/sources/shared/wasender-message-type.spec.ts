import { wasenderMessageType } from './wasender-message-type.js';

describe('wasenderMessageType', () => {
  it.each([
    [{ conversation: 'hi' }, 'text'],
    [{ extendedTextMessage: { text: 'hi' }, messageContextInfo: {} }, 'text'],
    [{ messageContextInfo: {}, imageMessage: {} }, 'image'],
    [{ videoMessage: {} }, 'video'],
    [{ audioMessage: { ptt: true } }, 'audio'],
    [{ documentWithCaptionMessage: { message: { documentMessage: {} } } }, 'document'],
    [{ stickerMessage: {} }, 'sticker'],
    [{ locationMessage: {} }, 'location'],
    [{ contactsArrayMessage: {} }, 'contacts'],
    [{ reactionMessage: { text: '👍' } }, 'reaction'],
    [{ pollCreationMessageV3: {} }, 'poll'],
  ])('reads %j as %s', (content, type) => {
    expect(wasenderMessageType(content)).toBe(type);
  });

  it('looks inside ephemeral and view-once wrappers', () => {
    const content = { ephemeralMessage: { message: { viewOnceMessageV2: { message: { imageMessage: {} } } } } };
    expect(wasenderMessageType(content)).toBe('image');
  });

  it('ignores null fields, which some serialisers emit for every proto field', () => {
    expect(wasenderMessageType({ conversation: null, imageMessage: {} })).toBe('image');
  });

  it.each<unknown>([undefined, null, 'text', [], {}, { constructor: {} }, { somethingNew: {} }])('answers unknown for %j', (content) => {
    expect(wasenderMessageType(content)).toBe('unknown');
  });
});
