import { expect } from 'chai';
import {
  FORWARD_TARGET_KINDS,
  PERSON_KINDS,
  REPLY_KINDS,
  chatKindOf,
  checkContentFor,
  isChatId,
  isGroupId,
  normalizeChatId,
  parseChatId,
} from '../../src/client/chat-id.js';
import { WakitError, isWakitError } from '../../src/errors/index.js';

function error(fn: () => unknown): WakitError {
  try {
    fn();
  } catch (e) {
    if (isWakitError(e)) return e;
    throw e;
  }
  throw new Error('expected a WakitError');
}

describe('chat ids', () => {
  it('accepts every kind as it is and says which it is', () => {
    expect(parseChatId('15550001111@c.us')).to.deep.equal({ id: '15550001111@c.us', kind: 'user' });
    expect(parseChatId('123456789012345@lid')).to.deep.equal({
      id: '123456789012345@lid',
      kind: 'lid',
    });
    expect(parseChatId('120363000000000001@g.us').kind).to.equal('group');
    expect(parseChatId('15550001111-1600000000@g.us').kind).to.equal('group');
    expect(parseChatId('120363000000000777@newsletter').kind).to.equal('channel');
    expect(parseChatId(' status@broadcast ')).to.deep.equal({
      id: 'status@broadcast',
      kind: 'status',
    });
    expect(isGroupId('120363000000000001@g.us')).to.equal(true);
    expect(isChatId('abc@c.us')).to.equal(false);
    expect(chatKindOf('other@broadcast')).to.equal(null);
  });

  it('normalises bare phone numbers to @c.us', () => {
    expect(normalizeChatId('+1 555-000-1111')).to.equal('15550001111@c.us');
    expect(normalizeChatId('15550001111')).to.equal('15550001111@c.us');
  });

  it('refuses kinds an operation cannot take, saying why', () => {
    const reply = error(() => parseChatId('status@broadcast', 'reply', { allow: REPLY_KINDS }));
    expect(reply.code).to.equal('INVALID_CHAT_ID');
    expect(reply.message).to.contain('status feed');
    expect(reply.details).to.deep.equal({
      field: 'reply',
      kind: 'status',
      allowed: ['user', 'lid', 'group'],
    });
    const mention = error(() =>
      normalizeChatId('120363000000000001@g.us', 'options.mentions.0', { allow: PERSON_KINDS }),
    );
    expect(mention.message).to.contain('a group is not a person');
    const forward = error(() =>
      normalizeChatId('120363000000000777@newsletter', 'chatId', { allow: FORWARD_TARGET_KINDS }),
    );
    expect(forward.message).to.contain('channels (@newsletter)');
    expect(normalizeChatId('123456789012345@lid', 'owners.0', { allow: PERSON_KINDS })).to.equal(
      '123456789012345@lid',
    );
  });

  it('knows what channels and status accept', () => {
    const ch = '120363000000000777@newsletter';
    expect(() => checkContentFor(ch, { kind: 'text', options: {} })).to.not.throw();
    expect(() => checkContentFor(ch, { kind: 'image' })).to.not.throw();
    expect(() => checkContentFor('status@broadcast', { kind: 'video' })).to.not.throw();
    expect(error(() => checkContentFor(ch, { kind: 'document' })).code).to.equal(
      'VALIDATION_FAILED',
    );
    expect(
      error(() => checkContentFor('status@broadcast', { kind: 'sticker' })).message,
    ).to.contain('stickers');
    expect(() => checkContentFor(ch, { kind: 'sticker' })).to.not.throw();
    expect(
      error(() =>
        checkContentFor('status@broadcast', {
          kind: 'text',
          options: { mentions: ['15550001111@c.us'] },
        }),
      ).message,
    ).to.contain('mentions');
    expect(() =>
      checkContentFor('15550001111@c.us', { kind: 'document', options: { quotedMessageId: 'x' } }),
    ).to.not.throw();
  });

  for (const bad of [
    '',
    'hello',
    'abc@c.us',
    'abc@lid',
    '1555@x.us',
    '12@c.us',
    'news@newsletter',
    'other@broadcast',
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
