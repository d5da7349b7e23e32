import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeFetch, type SafeFetchOptions } from '../../src/client/media/safe-fetch.js';
import { isPrivateAddress } from '../../src/client/media/ip-policy.js';
import { rejection } from '../helpers/rejection.js';

const base: SafeFetchOptions = {
  maxBytes: 1024,
  timeoutMs: 2_000,
  maxRedirects: 3,
  allowPrivateNetworks: true,
};

describe('safeFetch (guarded media downloads)', () => {
  let server: http.Server;
  let url: string;
  let port: number;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/image.png') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('png-bytes'));
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.alloc(4096));
      } else if (req.url === '/big-chunked') {
        res.writeHead(200);
        for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512));
        res.end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 1_000);
      } else if (req.url?.startsWith('/redirect-to-')) {
        res
          .writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect-to-'.length)) })
          .end();
      } else if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    url = `http://127.0.0.1:${port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('downloads a body with its content type', async () => {
    const body = await safeFetch(`${url}/image.png`, base);
    expect(body.data.toString()).to.equal('png-bytes');
    expect(body.contentType).to.equal('image/png');
  });

  it('refuses loopback addresses by default, by IP and by DNS name', async () => {
    const strict = { ...base, allowPrivateNetworks: false };
    expect((await rejection(safeFetch(`${url}/image.png`, strict))).code).to.equal(
      'MEDIA_URL_REFUSED',
    );
    const byName = await rejection(safeFetch(`http://localhost:${port}/image.png`, strict));
    expect(byName.code).to.equal('MEDIA_URL_REFUSED');
    expect(byName.status).to.equal(422);
    expect(byName.message).to.match(/private|loopback/);
    // IPv6 spellings of loopback and private space: refused before any connection
    for (const host of ['[2002:7f00:1::]', '[::127.0.0.1]', '[fec0::1]', '[64:ff9b::7f00:1]']) {
      const error = await rejection(safeFetch(`http://${host}:${port}/image.png`, strict));
      expect(error.code, host).to.equal('MEDIA_URL_REFUSED');
    }
  });

  it('checks every redirect hop against the address policy', async () => {
    // 127.0.0.1 is "public" for this test, 127.0.0.2 is the forbidden internal host
    const options = {
      ...base,
      allowPrivateNetworks: false,
      isBlocked: (a: string) => a !== '127.0.0.1',
    };
    expect((await safeFetch(`${url}/image.png`, options)).data.toString()).to.equal('png-bytes');
    const target = encodeURIComponent(`http://127.0.0.2:${port}/image.png`);
    const error = await rejection(safeFetch(`${url}/redirect-to-${target}`, options));
    expect(error.code).to.equal('MEDIA_URL_REFUSED');
    expect(error.message).to.match(/private/);
  });

  it('follows redirects up to the limit', async () => {
    const ok = await safeFetch(`${url}/redirect-to-${encodeURIComponent('/image.png')}`, base);
    expect(ok.data.toString()).to.equal('png-bytes');
    expect((await rejection(safeFetch(`${url}/loop`, base))).message).to.match(/redirects/);
  });

  it('refuses non-http schemes, also through redirects', async () => {
    expect((await rejection(safeFetch('file:///etc/passwd', base))).code).to.equal(
      'MEDIA_DOWNLOAD_FAILED',
    );
    const error = await rejection(
      safeFetch(`${url}/redirect-to-${encodeURIComponent('file:///etc/passwd')}`, base),
    );
    expect(error.message).to.match(/only http and https/);
  });

  it('caps the size by Content-Length and while streaming', async () => {
    expect((await rejection(safeFetch(`${url}/big`, base))).code).to.equal('MEDIA_TOO_LARGE');
    expect((await rejection(safeFetch(`${url}/big-chunked`, base))).code).to.equal(
      'MEDIA_TOO_LARGE',
    );
  });

  it('times out and reports HTTP errors', async () => {
    const slow = await rejection(safeFetch(`${url}/slow`, { ...base, timeoutMs: 100 }));
    expect(slow.code).to.equal('MEDIA_DOWNLOAD_FAILED');
    expect(slow.message).to.match(/timed out/);
    expect((await rejection(safeFetch(`${url}/missing?token=secret`, base))).message)
      .to.match(/HTTP 404/)
      .and.not.match(/secret/);
  });

  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      'not-an-ip',
    ]) {
      expect(isPrivateAddress(a), a).to.equal(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])
      expect(isPrivateAddress(a), a).to.equal(false);
  });
});
