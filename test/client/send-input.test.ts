import { expect } from 'chai';
import { validateMedia, validateText } from '../../src/client/send-input.js';
import type { WakitError } from '../../src/errors/index.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as WakitError).code;
  }
  return undefined;
}

describe('send input validation', () => {
  it('normalises text sends and their mentions', () => {
    const v = validateText({
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
      validateMedia('image', {
        to: '15550001111@c.us',
        image: { url: 'https://x.test/a.png', caption: 'c' },
      }).content,
    ).to.deep.include({ kind: 'image', caption: 'c', source: { url: 'https://x.test/a.png' } });
    expect(
      validateMedia('image', { to: '15550001111@c.us', image: { path: '/tmp/a.png' } }).content,
    ).to.deep.include({ source: { path: '/tmp/a.png' } });
    const buffer = validateMedia('image', {
      to: '15550001111@c.us',
      image: { buffer: Buffer.from('x'), mimetype: 'image/png' },
    });
    expect(buffer.content).to.have.nested.property('source.mimetype', 'image/png');
    expect(
      validateMedia('document', {
        to: '15550001111@c.us',
        document: { url: 'https://x.test/a.pdf', filename: 'a.pdf' },
      }).content,
    ).to.deep.include({ filename: 'a.pdf' });
  });

  const cases: [string, () => unknown, string][] = [
    [
      'empty text',
      () => validateText({ to: '15550001111@c.us', text: '   ' }),
      'VALIDATION_FAILED',
    ],
    ['missing text', () => validateText({ to: '15550001111@c.us' }), 'VALIDATION_FAILED'],
    [
      'text not a string',
      () => validateText({ to: '15550001111@c.us', text: 5 }),
      'VALIDATION_FAILED',
    ],
    ['bad chat id', () => validateText({ to: 'nobody', text: 'x' }), 'INVALID_CHAT_ID'],
    [
      'bad mention',
      () => validateText({ to: '15550001111@c.us', text: 'x', options: { mentions: ['nope'] } }),
      'INVALID_CHAT_ID',
    ],
    [
      'unknown option',
      () => validateText({ to: '15550001111@c.us', text: 'x', options: { bold: true } }),
      'VALIDATION_FAILED',
    ],
    [
      'extra top-level field',
      () => validateText({ to: '15550001111@c.us', text: 'x', foo: 1 }),
      'VALIDATION_FAILED',
    ],
    ['not an object', () => validateText('hello'), 'VALIDATION_FAILED'],
    [
      'two image sources',
      () =>
        validateMedia('image', {
          to: '15550001111@c.us',
          image: { url: 'https://x.test/a', path: '/a' },
        }),
      'VALIDATION_FAILED',
    ],
    [
      'no image source',
      () => validateMedia('image', { to: '15550001111@c.us', image: { caption: 'x' } }),
      'VALIDATION_FAILED',
    ],
    [
      'buffer without mimetype',
      () => validateMedia('image', { to: '15550001111@c.us', image: { buffer: Buffer.from('x') } }),
      'VALIDATION_FAILED',
    ],
    [
      'non-http url',
      () =>
        validateMedia('video', { to: '15550001111@c.us', video: { url: 'file:///etc/passwd' } }),
      'VALIDATION_FAILED',
    ],
    [
      'caption on audio',
      () =>
        validateMedia('audio', {
          to: '15550001111@c.us',
          audio: { url: 'https://x.test/a.ogg', caption: 'no' },
        }),
      'VALIDATION_FAILED',
    ],
    [
      'caption on sticker',
      () =>
        validateMedia('sticker', {
          to: '15550001111@c.us',
          sticker: { url: 'https://x.test/a.webp', caption: 'no' },
        }),
      'VALIDATION_FAILED',
    ],
    [
      'path on video',
      () => validateMedia('video', { to: '15550001111@c.us', video: { path: '/tmp/a.mp4' } }),
      'VALIDATION_FAILED',
    ],
    [
      'document without filename',
      () =>
        validateMedia('document', {
          to: '15550001111@c.us',
          document: { url: 'https://x.test/a.pdf' },
        }),
      'VALIDATION_FAILED',
    ],
    [
      'missing media object',
      () => validateMedia('image', { to: '15550001111@c.us' }),
      'VALIDATION_FAILED',
    ],
    [
      'media under the wrong key',
      () => validateMedia('image', { to: '15550001111@c.us', video: { url: 'https://x.test/a' } }),
      'VALIDATION_FAILED',
    ],
    [
      'bad group id',
      () => validateMedia('sticker', { to: 'x@g.us', sticker: { url: 'https://x.test/a.webp' } }),
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
      validateMedia('document', { to: '15550001111@c.us', document: { url: 'ftp://x', extra: 1 } });
      expect.fail('should throw');
    } catch (error) {
      const paths = (error as WakitError).issues?.map((i) => i.path) ?? [];
      expect(paths).to.include.members(['document.url', 'document.filename', 'document']);
    }
  });
});
