import { otherParty, ownIds, wahaSenderText } from './waha-parties.js';

const ME = ownIds({ id: '11111111111@c.us', lid: '99999999999999@lid', jid: '11111111111:22@s.whatsapp.net' });
const GROUP = '120363000000000000@g.us';

describe('wahaSenderText', () => {
  it('cuts phone accounts to the number and keeps every other id whole', () => {
    expect(wahaSenderText('22222222222@c.us')).toBe('22222222222');
    expect(wahaSenderText('22222222222:12@s.whatsapp.net')).toBe('22222222222');
    expect(wahaSenderText('72318944542853@lid')).toBe('72318944542853@lid');
    expect(wahaSenderText(GROUP)).toBe(GROUP);
    expect(wahaSenderText('1234567890@newsletter')).toBe('1234567890@newsletter');
    expect(wahaSenderText('status@broadcast')).toBe('status@broadcast');
    expect(wahaSenderText('@c.us')).toBe('@c.us');
  });
});

describe('otherParty', () => {
  it('is the author of a received message: `from`, or the participant in a group', () => {
    expect(otherParty({ from: '22222222222@c.us', to: '11111111111@c.us' }, ME, false)).toBe('22222222222');
    expect(otherParty({ from: GROUP, participant: '33333333333@c.us' }, ME, false)).toBe('33333333333');
    expect(otherParty({ from: GROUP, participant: null, author: '33333333333@c.us' }, ME, false)).toBe('33333333333');
    expect(otherParty({ from: GROUP }, ME, false)).toBe(GROUP);
  });

  it('is the chat of the account’s own message, whichever field the engine put it in', () => {
    // WEBJS: author in `from`, chat in `to`; NOWEB: chat in `from`, no `to` outside groups.
    expect(otherParty({ fromMe: true, from: '11111111111@c.us', to: '22222222222@c.us' }, ME, false)).toBe('22222222222');
    expect(otherParty({ fromMe: true, from: '22222222222@c.us', to: null }, ME, false)).toBe('22222222222');
    expect(otherParty({ fromMe: true, from: GROUP, to: GROUP, participant: '11111111111@c.us' }, ME, false)).toBe(GROUP);
    expect(otherParty({ fromMe: true, from: '99999999999999@lid', to: '11111111111:22@s.whatsapp.net' }, ME, false)).toBeNull();
  });

  it('is the reader of an ack in a group, else the chat the message went to', () => {
    expect(otherParty({ fromMe: true, from: GROUP, participant: '9999@lid' }, ME, true)).toBe('9999@lid');
    expect(otherParty({ fromMe: true, from: '22222222222@c.us', participant: null }, ME, true)).toBe('22222222222');
    expect(otherParty({ fromMe: true, from: '11111111111@c.us', to: '22222222222@c.us' }, ME, true)).toBe('22222222222');
  });

  it('counts `me` of poll events as the account, and works without an envelope `me`', () => {
    expect(otherParty({ fromMe: true, from: 'me', to: '22222222222@c.us' }, ownIds(null), false)).toBe('22222222222');
    expect(otherParty({ fromMe: true, from: '22222222222@c.us', to: 'me' }, ownIds(null), false)).toBe('22222222222');
    expect(otherParty({}, ownIds(null), false)).toBeNull();
  });
});
