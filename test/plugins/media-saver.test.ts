import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import mediaSaver from '../../plugins/media-saver/index.js';
import type { Message } from '../../src/index.js';
import {
  buildSafePath,
  sanitizePart,
  templateProblem,
  type PathValues,
} from '../../plugins/media-saver/safe-path.js';
import {
  ALICE,
  ALICE_ID,
  BOT_ID,
  GROUP_ID,
  pluginFixture,
  settle,
  type PluginFixture,
} from './plugin-helpers.js';

const PNG = Buffer.from('89504e470d0a1a0a-saved-png');

async function waitForFiles(dir: string, count: number): Promise<string[]> {
  let files: string[] = [];
  // complete: `count` files and no temporary file of a write still in progress
  const complete = (): boolean => files.length >= count && !files.some((f) => f.endsWith('.tmp'));
  for (let i = 0; i < 300 && !complete(); i += 1) {
    files = await listFiles(dir);
    await settle(10);
  }
  return files;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('media-saver path safety', () => {
  const values = (over: Partial<PathValues>): PathValues => ({
    date: '2024-01-02',
    time: '10-00-00',
    chat: ALICE_ID,
    sender: ALICE_ID,
    id: 'false_1555@c.us_ABC',
    ext: 'png',
    type: 'image',
    filename: 'photo',
    client: 'bot',
    ...over,
  });
  const root = path.resolve('/srv/media');
  const evil = [
    '../../etc/passwd',
    '/etc/passwd',
    '..',
    '.',
    'a\0b',
    'C:\\Windows\\x',
    '..\\..\\x',
    'x'.repeat(5000),
    '.hidden',
    '-rf',
    '%2e%2e%2f',
    '',
    '\u2025\u2025/x',
  ];

  for (const name of evil) {
    it(`keeps ${JSON.stringify(name.slice(0, 24))} inside dir`, () => {
      for (const field of ['filename', 'id', 'chat', 'sender', 'ext'] as const) {
        const full = buildSafePath(
          root,
          '{date}/{chat}/{filename}-{id}.{ext}',
          values({ [field]: name }),
        );
        expect(full.startsWith(root + path.sep)).to.equal(true);
        expect(full).to.not.include('\0');
        const relative = path.relative(root, full);
        expect(relative.split(path.sep)).to.have.length(3);
        for (const segment of relative.split(path.sep)) {
          expect(segment).to.not.match(/^\.|^$/);
          expect(segment.length).to.be.at.most(200);
        }
      }
    });
  }

  it('sanitises parts to a safe alphabet', () => {
    expect(sanitizePart('../../etc/passwd')).to.equal('_._etc_passwd');
    expect(sanitizePart('a\0b/c')).to.equal('a_b_c');
    expect(sanitizePart('...')).to.equal('_');
    expect(sanitizePart('x'.repeat(500))).to.have.length(80);
  });

  it('refuses unsafe path templates', () => {
    expect(templateProblem('{date}/{id}.{ext}')).to.equal(undefined);
    expect(templateProblem('/abs/{id}')).to.match(/relative/);
    expect(templateProblem('../{id}')).to.match(/\.\./);
    expect(templateProblem('a//{id}')).to.match(/empty/);
    expect(templateProblem('{secret}')).to.match(/unknown placeholder/);
  });
});

describe('media-saver plugin', () => {
  let fx: PluginFixture;
  afterEach(() => fx.cleanup());

  async function start(options: Record<string, unknown>) {
    fx = await pluginFixture();
    fx.sdk.use(mediaSaver, { ...options, dir: path.join(fx.dir, 'media') });
    await fx.start();
    return path.join(fx.dir, 'media');
  }

  it('saves media with a sidecar (sha256 and metadata) under sanitised paths', async () => {
    const dir = await start({ path: '{chat}/{filename}.{ext}' });
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, {
      data: PNG,
      mimetype: 'image/png',
      filename: '../../../../etc/evil\0name.png',
      caption: 'holiday',
    });
    const files = await waitForFiles(dir, 2);
    expect(files).to.deep.equal([
      '15550001111_c.us/evil_name.png',
      '15550001111_c.us/evil_name.png.json',
    ]);
    expect(await readFile(path.join(dir, files[0]))).to.deep.equal(PNG);
    const sidecar = JSON.parse(await readFile(path.join(dir, files[1]), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(sidecar).to.include({
      chat: ALICE_ID,
      sender: ALICE_ID,
      caption: 'holiday',
      mimetype: 'image/png',
      size: PNG.length,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      senderName: 'Alice',
      type: 'image',
    });
    expect(sidecar.timestamp).to.be.a('number');
  });

  it('filters by chat and type, skips oversized media, and never leaves temp files', async () => {
    const dir = await start({ chats: [GROUP_ID], types: ['image'], maxBytes: 100 });
    const alice = fx.sdk.simulator.phone(ALICE);
    await alice.send(BOT_ID, { data: PNG, mimetype: 'image/png' });
    await alice.send(GROUP_ID, {
      data: Buffer.from('%PDF'),
      mimetype: 'application/pdf',
      filename: 'x.pdf',
    });
    await alice.send(GROUP_ID, { data: Buffer.alloc(101, 1), mimetype: 'image/png' });
    await alice.send(GROUP_ID, { data: PNG, mimetype: 'image/jpeg', caption: 'ok' });
    await waitForFiles(dir, 2);
    await settle(50);
    const files = await listFiles(dir);
    expect(files).to.have.length(2);
    expect(files[0]).to.match(
      /^\d{4}-\d\d-\d\d\/120363000000000001_g.us\/false_120363000000000001_g.us_[A-Za-z0-9_.-]+\.jpg$/,
    );
    expect(files.some((f) => f.endsWith('.tmp'))).to.equal(false);
  });

  it('never saves the same message twice', async () => {
    const dir = await start({});
    const client = fx.sdk.client('bot');
    let message: Message | undefined;
    client.on('message', (m) => {
      message = m;
    });
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, { data: PNG, mimetype: 'image/png' });
    const files = await waitForFiles(dir, 2);
    const first = await readFile(path.join(dir, files[1]), 'utf8');
    // a second delivery of the same message (re-sync, a second handler run) changes nothing
    await settle(20);
    await fx.sdk.plugins.dispatch(client, 'message', message as Message);
    // and a new start on the same directory does not overwrite it either
    await fx.sdk.plugins.dispatch(client, 'message', message as Message);
    await settle(50);
    expect(await listFiles(dir)).to.deep.equal(files);
    expect(await readFile(path.join(dir, files[1]), 'utf8')).to.equal(first);
  });

  it("takes the extension from the MIME type only (never the sender's file name), .bin otherwise", async () => {
    const dir = await start({ path: '{filename}.{ext}' });
    const alice = fx.sdk.simulator.phone(ALICE);
    const cases: [string, string, string][] = [
      ['photo.exe', 'image/png', 'photo.png'],
      ['song.php', 'audio/mpeg', 'song.mp3'],
      ['report.sh', 'application/pdf', 'report.pdf'],
      ['page.html', 'text/html', 'page.bin'],
      ['shell.php', 'application/x-httpd-php', 'shell.bin'],
      ['logo.svg', 'image/svg+xml', 'logo.bin'],
      ['run.sh', 'application/x-sh', 'run.bin'],
      ['setup.exe', 'application/x-msdownload', 'setup.bin'],
      ['tool.exe', 'application/x-unknown-thing', 'tool.bin'],
    ];
    for (const [filename, mimetype] of cases) {
      await alice.send(BOT_ID, { data: Buffer.from('<script>x</script>'), mimetype, filename });
    }
    const files = await waitForFiles(dir, cases.length * 2);
    expect(files.filter((f) => !f.endsWith('.json'))).to.deep.equal(
      cases.map(([, , saved]) => saved).sort(),
    );
  });

  it('never overwrites nor silently skips a colliding file name: the second gets a suffix', async () => {
    const dir = await start({ path: '{filename}.{ext}' });
    const alice = fx.sdk.simulator.phone(ALICE);
    const doc = (text: string) => ({
      data: Buffer.from(text),
      mimetype: 'application/pdf',
      filename: 'report.pdf',
    });
    await alice.send(BOT_ID, doc('first'));
    await waitForFiles(dir, 2);
    // two more with the same name, arriving together (a race)
    await Promise.all([alice.send(BOT_ID, doc('second')), alice.send(GROUP_ID, doc('third'))]);
    const files = await waitForFiles(dir, 6);
    expect(files).to.deep.equal([
      'report-1.pdf',
      'report-1.pdf.json',
      'report-2.pdf',
      'report-2.pdf.json',
      'report.pdf',
      'report.pdf.json',
    ]);
    expect(await readFile(path.join(dir, 'report.pdf'), 'utf8')).to.equal('first');
    const later = [
      await readFile(path.join(dir, 'report-1.pdf'), 'utf8'),
      await readFile(path.join(dir, 'report-2.pdf'), 'utf8'),
    ].sort();
    expect(later).to.deep.equal(['second', 'third']);
    for (const file of ['report.pdf', 'report-1.pdf', 'report-2.pdf']) {
      const sidecar = JSON.parse(await readFile(path.join(dir, `${file}.json`), 'utf8')) as {
        file: string;
        size: number;
      };
      expect(sidecar.file).to.equal(file);
    }
  });
});
