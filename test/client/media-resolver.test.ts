import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DefaultMediaResolver } from '../../src/client/media/default-media-resolver.js';
import { parseConfig } from '../../src/config/index.js';
import { rejection } from '../helpers/rejection.js';
import { mediaServer, tempDir } from '../helpers/sdk-fixtures.js';

const PNG = Buffer.from('89504e470d0a1a0a-fake-png');

describe('the declared mimetype of a url or path source (DefaultMediaResolver)', () => {
  const resolver = new DefaultMediaResolver(
    parseConfig({
      auth: { type: 'local', dataPath: '/tmp/unused' },
      media: { allowPrivateNetworks: true },
    }).media,
  );
  let media: Awaited<ReturnType<typeof mediaServer>>;
  let dir: string;
  let cleanup: () => Promise<void>;
  before(async () => {
    media = await mediaServer({
      'cat.png': { type: 'image/png', body: PNG },
      blob: { type: 'application/octet-stream', body: PNG },
      s3: { type: 'binary/octet-stream', body: PNG },
      'photo.jpg': { type: 'image/jpeg', body: PNG },
      login: { type: 'text/html; charset=utf-8', body: Buffer.from('<html>') },
    });
    ({ dir, cleanup } = await tempDir());
  });
  after(async () => {
    media.close();
    await cleanup();
  });

  it('without mimetype the download says the type (Content-Type, else the file name)', async () => {
    expect((await resolver.resolve({ url: media.url('cat.png') })).mimetype).to.equal('image/png');
    expect((await resolver.resolve({ url: media.url('blob') })).mimetype).to.equal(
      'application/octet-stream',
    );
  });

  it('a declared type is sent when the download says nothing specific or the same family', async () => {
    for (const name of ['blob', 's3', 'photo.jpg', 'cat.png']) {
      const file = await resolver.resolve({ url: media.url(name), mimetype: 'image/png' });
      expect(file.mimetype, name).to.equal('image/png');
      expect(file.data.equals(PNG)).to.equal(true);
    }
  });

  it('a download of another family is MEDIA_TYPE_MISMATCH, saying both types', async () => {
    const error = await rejection(
      resolver.resolve({ url: media.url('login'), mimetype: 'image/png' }),
    );
    expect(error.code).to.equal('MEDIA_TYPE_MISMATCH');
    expect(error.status).to.equal(422);
    expect(error.details).to.deep.equal({ declared: 'image/png', found: 'text/html' });
    expect(error.message).to.contain('text/html').and.contain('image/png');
  });

  it('a path source: the declared type wins over the extension, another family is refused', async () => {
    const file = path.join(dir, 'photo.jpg');
    const unknown = path.join(dir, 'upload.bin');
    const notes = path.join(dir, 'notes.txt');
    await writeFile(file, PNG);
    await writeFile(unknown, PNG);
    await writeFile(notes, 'hello');
    expect((await resolver.resolve({ path: file, mimetype: 'image/png' })).mimetype).to.equal(
      'image/png',
    );
    expect((await resolver.resolve({ path: unknown, mimetype: 'image/png' })).mimetype).to.equal(
      'image/png',
    );
    expect((await resolver.resolve({ path: unknown })).mimetype).to.equal(
      'application/octet-stream',
    );
    expect(
      (await rejection(resolver.resolve({ path: notes, mimetype: 'image/png' }))).code,
    ).to.equal('MEDIA_TYPE_MISMATCH');
  });
});
