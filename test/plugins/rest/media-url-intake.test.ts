// A media URL whose host is a refused IP literal is refused before it is queued (issue 29, item 4).
import { expect } from 'chai';
import { CONTACT, CONTACT_ID, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

const REFUSED = [
  'http://127.0.0.1:9/cat.png',
  'http://10.1.2.3/cat.png',
  'http://192.168.0.10/cat.png',
  'http://[::1]/cat.png',
  'http://[::ffff:127.0.0.1]/cat.png',
  'http://2130706433/cat.png', // 127.0.0.1 written as one number
];

describe('media URLs with a private IP literal are refused at intake', () => {
  let fx: RestFixture;
  afterEach(async () => {
    await fx?.close();
  });

  it('REST: 422 MEDIA_URL_REFUSED at once, with Prefer: wait no Location, nothing journaled', async () => {
    fx = await restFixture();
    await fx.link('bot');
    for (const url of REFUSED) {
      for (const headers of [{}, { prefer: 'wait=5' }] as Record<string, string>[]) {
        const res = await fx.request('POST', '/api/v1/messages', {
          json: { chatId: CONTACT, content: { type: 'image', url } },
          headers,
        });
        expect(res.status, url).to.equal(422);
        expect(res.json).to.include({ code: 'MEDIA_URL_REFUSED' });
        expect(res.headers.get('location'), url).to.equal(null);
      }
    }
    const listed = await fx.request('GET', '/api/v1/messages');
    expect((listed.json as { items: unknown[] }).items).to.deep.equal([]);
  });

  it('SDK: sendImageMessage rejects at once; media.allowPrivateNetworks accepts the send', async () => {
    fx = await restFixture();
    await fx.link('bot');
    const bot = fx.sdk.client('bot');
    const error = await bot
      .sendImageMessage({ to: CONTACT_ID, image: { url: 'http://[::1]:9/x.png' } })
      .then(
        () => undefined,
        (e: unknown) => e as { code?: string },
      );
    expect(error?.code).to.equal('MEDIA_URL_REFUSED');
    await fx.close();

    fx = await restFixture({ config: { media: { allowPrivateNetworks: true } } });
    await fx.link('bot');
    const res = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: { type: 'image', url: 'http://127.0.0.1:9/cat.png' } },
    });
    expect(res.status).to.equal(202);
  });
});
