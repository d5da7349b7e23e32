import { expect } from 'chai';
import { isChatId, isGroupId, normalizeChatId } from '../../src/client/chat-id.js';
import { WakitError } from '../../src/errors/index.js';

describe('chat ids', () => {
  it('accepts user and group chat ids as they are', () => {
    expect(normalizeChatId('15550001111@c.us')).to.equal('15550001111@c.us');
    expect(normalizeChatId('120363000000000001@g.us')).to.equal('120363000000000001@g.us');
    expect(normalizeChatId('15550001111-1600000000@g.us')).to.equal('15550001111-1600000000@g.us');
    expect(isGroupId('120363000000000001@g.us')).to.equal(true);
    expect(isChatId('abc@c.us')).to.equal(false);
  });

  it('normalises bare phone numbers to @c.us', () => {
    expect(normalizeChatId('+1 555-000-1111')).to.equal('15550001111@c.us');
    expect(normalizeChatId('15550001111')).to.equal('15550001111@c.us');
  });

  for (const bad of [
    '',
    'hello',
    'abc@c.us',
    '1555@x.us',
    '12@c.us',
    '+1+2',
    'ab12345678',
    42,
    null,
    undefined,
    {},
  ]) {
    it(`rejects ${JSON.stringify(bad) ?? 'undefined'} with INVALID_CHAT_ID`, () => {
      expect(() => normalizeChatId(bad))
        .to.throw(WakitError)
        .with.property('code', 'INVALID_CHAT_ID');
    });
  }
});
