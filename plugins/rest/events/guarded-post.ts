/**
 * The transport of per-client webhooks: a POST through node:http(s) whose DNS look-up refuses
 * loopback, private, link-local and other special-purpose addresses at connect time (so a name
 * that resolves, or re-resolves, to an internal address is refused too), unless
 * `allowPrivateNetworks`. Redirects are not followed (a 3xx is a failed attempt, as for configured
 * webhooks).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import * as wakitHttp from '../../../src/entries/http.js';

const NEVER_BLOCKED = (): boolean => false;

/** True when the URL names a host the policy refuses without looking it up (literal IPs, localhost). */
export function refusedHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return true; // not reported: a URL that does not parse is refused (the answer)
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && wakitHttp.isPrivateAddress(host);
}

/** POSTs `body`; resolves to the answer's status (the body is discarded). */
export function guardedPost(
  url: string,
  init: {
    headers: Record<string, string>;
    body: string;
    signal: AbortSignal;
    allowPrivateNetworks: boolean;
  },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    if (!init.allowPrivateNetworks && refusedHost(url)) {
      reject(Object.assign(new Error('address refused by policy'), { code: 'EPRIVATE' }));
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        signal: init.signal,
        lookup: wakitHttp.guardedLookup(
          init.allowPrivateNetworks ? NEVER_BLOCKED : wakitHttp.isPrivateAddress,
        ),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
