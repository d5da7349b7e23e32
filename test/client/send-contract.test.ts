import { expect } from 'chai';
import { prepareContent, prepareSend, sendRequestSchema } from '../../src/entries/contract.js';
import type { WakitError } from '../../src/index.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as WakitError).code;
  }
  return undefined;
}

describe('the send contract', () => {
  it('normalises text sends and their mentions', () => {
    const v = prepareSend('text', {
      to: '+1 555 000 1111',
      text: 'hi',
      options: { mentions: ['15550002222'], linkPreview: false },
    });
    expect(v.chatId).to.equal('15550001111@c.us');
    expect(v.content).to.deep.equal({
      kind: 'text',
      text: 'hi',
      options: { mentions: ['15550002222@c.us'], linkPreview: false },
    });
  });

  it('accepts each media source of an image', () => {
    expect(
      prepareSend('image', {
        to: '15550001111@c.us',
        image: { url: 'https://x.test/a.png', caption: 'c' },
      }).content,
    ).to.deep.include({ kind: 'image', caption: 'c', source: { url: 'https://x.test/a.png' } });
    expect(
      prepareSend('image', { to: '15550001111@c.us', image: { path: '/tmp/a.png' } }).content,
    ).to.deep.include({ source: { path: '/tmp/a.png' } });
    expect(
      prepareSend('image', {
        to: '15550001111@c.us',
        image: { path: '/tmp/a.bin', mimetype: 'image/png' },
      }).content,
    ).to.deep.include({ source: { path: '/tmp/a.bin', mimetype: 'image/png' } });
    const buffer = prepareSend('image', {
      to: '15550001111@c.us',
      image: { buffer: Buffer.from('x'), mimetype: 'image/png' },
    });
    expect(buffer.content).to.have.nested.property('source.mimetype', 'image/png');
    expect(
      prepareSend('document', {
        to: '15550001111@c.us',
        document: { url: 'https://x.test/a.pdf', filename: 'a.pdf' },
      }).content,
    ).to.deep.include({ filename: 'a.pdf' });
  });

  const cases: [string, () => unknown, string][] = [
    [
      'empty text',
      () => prepareSend('text', { to: '15550001111@c.us', text: '   ' }),
      'VALIDATION_FAILED',
    ],
    ['missing text', () => prepareSend('text', { to: '15550001111@c.us' }), 'VALIDATION_FAILED'],
    [
      'text not a string',
      () => prepareSend('text', { to: '15550001111@c.us', text: 5 }),
      'VALIDATION_FAILED',
    ],
    ['bad chat id', () => prepareSend('text', { to: 'nobody', text: 'x' }), 'INVALID_CHAT_ID'],
    [
      'bad mention',
      () =>
        prepareSend('text', { to: '15550001111@c.us', text: 'x', options: { mentions: ['nope'] } }),
      'INVALID_CHAT_ID',
    ],
    [
      'unknown option',
      () => prepareSend('text', { to: '15550001111@c.us', text: 'x', options: { bold: true } }),
      'VALIDATION_FAILED',
    ],
    [
      'extra top-level field',
      () => prepareSend('text', { to: '15550001111@c.us', text: 'x', foo: 1 }),
      'VALIDATION_FAILED',
    ],
    ['not an object', () => prepareSend('text', 'hello'), 'VALIDATION_FAILED'],
    [
      'two image sources',
      () =>
        prepareSend('image', {
          to: '15550001111@c.us',
          image: { url: 'https://x.test/a', path: '/a' },
        }),
      'VALIDATION_FAILED',
    ],
    [
      'no image source',
      () => prepareSend('image', { to: '15550001111@c.us', image: { caption: 'x' } }),
      'VALIDATION_FAILED',
    ],
    [
      'buffer without mimetype',
      () => prepareSend('image', { to: '15550001111@c.us', image: { buffer: Buffer.from('x') } }),
      'VALIDATION_FAILED',
    ],
    [
      'non-http url',
      () => prepareSend('video', { to: '15550001111@c.us', video: { url: 'file:///etc/passwd' } }),
      'VALIDATION_FAILED',
    ],
    [
      'caption on audio',
      () =>
        prepareSend('audio', {
          to: '15550001111@c.us',
          audio: { url: 'https://x.test/a.ogg', caption: 'no' },
        }),
      'VALIDATION_FAILED',
    ],
    [
      'caption on sticker',
      () =>
        prepareSend('sticker', {
          to: '15550001111@c.us',
          sticker: { url: 'https://x.test/a.webp', caption: 'no' },
        }),
      'VALIDATION_FAILED',
    ],
    [
      'document without filename',
      () =>
        prepareSend('document', {
          to: '15550001111@c.us',
          document: { url: 'https://x.test/a.pdf' },
        }),
      'VALIDATION_FAILED',
    ],
    [
      'missing media object',
      () => prepareSend('image', { to: '15550001111@c.us' }),
      'VALIDATION_FAILED',
    ],
    [
      'media under the wrong key',
      () => prepareSend('image', { to: '15550001111@c.us', video: { url: 'https://x.test/a' } }),
      'VALIDATION_FAILED',
    ],
    [
      'bad group id',
      () => prepareSend('sticker', { to: 'x@g.us', sticker: { url: 'https://x.test/a.webp' } }),
      'INVALID_CHAT_ID',
    ],
  ];
  for (const [name, fn, code] of cases) {
    it(`rejects ${name} with ${code}`, () => {
      expect(codeOf(fn)).to.equal(code);
    });
  }

  it('lists every problem with its path', () => {
    try {
      prepareSend('document', { to: '15550001111@c.us', document: { url: 'ftp://x', extra: 1 } });
      expect.fail('should throw');
    } catch (error) {
      const paths = (error as WakitError).issues?.map((i) => i.path) ?? [];
      expect(paths).to.include.members(['document.url', 'document.filename', 'document']);
    }
  });

  it('ctx.send content: a string is text with options, an object media of one type', () => {
    expect(prepareContent('+1 555 000 1111', 'hi', { quotedMessageId: 'q1' })).to.deep.equal({
      chatId: '15550001111@c.us',
      content: { kind: 'text', text: 'hi', options: { quotedMessageId: 'q1' } },
    });
    const image = prepareContent('15550001111', {
      type: 'image',
      data: Buffer.from('png').toString('base64'),
      mimetype: 'image/png',
    });
    expect(image.content).to.deep.include({
      kind: 'image',
      source: { buffer: Buffer.from('png'), mimetype: 'image/png' },
    });
    expect(
      codeOf(() => prepareContent('15550001111', { type: 'gif', url: 'https://x.test/a' })),
    ).to.equal('VALIDATION_FAILED');
    expect(codeOf(() => prepareContent('nobody', 'hi'))).to.equal('INVALID_CHAT_ID');
  });

  describe('the HTTP body (sendRequestSchema)', () => {
    const schema = sendRequestSchema({});

    it('prepares the send while it parses: one validation on the way in', () => {
      const body = schema.parse({
        chatId: '15550001111',
        content: { type: 'document', data: 'aGk=', mimetype: 'text/plain', filename: 'a.txt' },
      });
      expect(body.send.chatId).to.equal('15550001111@c.us');
      expect(body.send.content).to.deep.include({
        kind: 'document',
        filename: 'a.txt',
        source: { buffer: Buffer.from('hi'), mimetype: 'text/plain' },
      });
    });

    it("takes the specification's media content: mimetype with url declares the type", () => {
      const body = schema.parse({
        chatId: '15550001111@c.us',
        content: {
          type: 'image',
          url: 'https://example.com/cat.png',
          mimetype: 'image/png',
          caption: 'hi',
        },
      });
      expect(body.send.content).to.deep.include({
        kind: 'image',
        caption: 'hi',
        source: { url: 'https://example.com/cat.png', mimetype: 'image/png' },
      });
      const bad = schema.safeParse({
        chatId: '15550001111@c.us',
        content: { type: 'image', url: 'https://example.com/cat.png', mimetype: 'png' },
      });
      expect(bad.success).to.equal(false);
    });

    it('takes no path or buffer, options only with text, and names chatId in chat id errors', () => {
      const bad = (body: unknown) => schema.safeParse(body).success;
      expect(
        bad({ chatId: '15550001111', content: { type: 'image', path: '/etc/passwd' } }),
      ).to.equal(false);
      expect(
        bad({
          chatId: '15550001111',
          content: { type: 'image', url: 'https://x.test/a.png' },
          options: { linkPreview: true },
        }),
      ).to.equal(false);
      try {
        schema.parse({ chatId: 'not-a-chat', content: 'hi' });
        expect.fail('should throw');
      } catch (error) {
        expect((error as WakitError).code).to.equal('INVALID_CHAT_ID');
        expect((error as WakitError).details).to.include({ field: 'chatId' });
      }
    });
  });
});
