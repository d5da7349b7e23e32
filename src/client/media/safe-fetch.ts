import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { WakitError } from '../../errors/index.js';
import { isPrivateAddress } from './ip-policy.js';

export interface SafeFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  allowPrivateNetworks: boolean;
  /** Which resolved addresses are refused; default: private, loopback and link-local ones. */
  isBlocked?: (address: string) => boolean;
}

export interface FetchedBody {
  data: Buffer;
  contentType: string | undefined;
  /** The URL finally answered (after redirects). */
  url: string;
}

function failed(url: string, reason: string, cause?: unknown): WakitError {
  return new WakitError('MEDIA_DOWNLOAD_FAILED', `Could not download ${redact(url)}: ${reason}`, {
    details: { url: redact(url), reason },
    cause,
  });
}

/** The address policy refused the URL: nothing was contacted, it is the caller's error. */
function refused(url: string, cause?: unknown): WakitError {
  return new WakitError(
    'MEDIA_URL_REFUSED',
    `Refused to download ${redact(url)}: loopback, private, link-local and other special-purpose addresses are not allowed (media.allowPrivateNetworks)`,
    { details: { url: redact(url), reason: 'address refused by policy' }, cause },
  );
}

/**
 * Refuses at once (MEDIA_URL_REFUSED) a URL whose host is an IP literal the address policy blocks
 * (`http://127.0.0.1/`, `http://[::1]/`, `http://10.0.0.5/`), so such a send is never accepted.
 * Host names are judged when they are resolved, at download time (`guardedLookup`).
 */
export function checkUrlAddress(
  rawUrl: string,
  options: Pick<SafeFetchOptions, 'allowPrivateNetworks' | 'isBlocked'>,
): void {
  if (options.allowPrivateNetworks) return;
  let host: string;
  try {
    host = new URL(rawUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return; // not reported: not a URL; the download itself fails and says so
  }
  if (isIP(host) !== 0 && (options.isBlocked ?? isPrivateAddress)(host)) throw refused(rawUrl);
}

/** URLs are logged and reported without credentials or query strings (they often carry tokens). */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)'; // not reported: a redaction for a log line; the answer says it
  }
}

/**
 * DNS lookup that refuses private addresses. It runs at connect time, for every hop, so a DNS name
 * that resolves (or re-resolves) to a private address is refused too.
 */
export function guardedLookup(isBlocked: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((a) => !isBlocked(a.address));
      if (allowed.length === 0) {
        const refused = new Error(`${hostname} resolves to a private or loopback address`);
        (refused as NodeJS.ErrnoException).code = 'EPRIVATE';
        return callback(refused, '', 0);
      }
      if (options.all) return callback(null, allowed);
      const first = allowed[0];
      return callback(null, first.address, first.family);
    });
  };
}

function requestOnce(
  url: URL,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const isBlocked = options.allowPrivateNetworks
      ? () => false
      : (options.isBlocked ?? isPrivateAddress);
    if (isIP(host) !== 0 && isBlocked(host)) {
      reject(refused(url.href));
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(
      url,
      {
        signal,
        lookup: guardedLookup(isBlocked),
        headers: { 'user-agent': 'wakit', accept: '*/*' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
          return;
        }
        if (status < 200 || status >= 300) {
          res.resume();
          reject(failed(url.href, `the server answered HTTP ${status}`));
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          res.destroy();
          reject(tooLarge(url.href, options.maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(tooLarge(url.href, options.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (error) => reject(failed(url.href, error.message, error)));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (signal.aborted)
        reject(failed(url.href, `timed out after ${options.timeoutMs} ms`, error));
      else if (error.code === 'EPRIVATE') {
        reject(refused(url.href, error));
      } else reject(failed(url.href, error.code ?? error.message, error));
    });
  });
}

function tooLarge(url: string, maxBytes: number): WakitError {
  return new WakitError(
    'MEDIA_TOO_LARGE',
    `Media at ${redact(url)} is larger than ${maxBytes} bytes`,
    {
      details: { url: redact(url), maxBytes },
    },
  );
}

/**
 * Downloads a URL for use as media: http(s) only, size-capped, with an overall timeout, following
 * at most `maxRedirects` redirects, each hop checked again against the private-address policy.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<FetchedBody> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch (error) {
    throw failed(rawUrl, 'not a valid URL', error);
  }
  for (let hop = 0; ; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw failed(url.href, `only http and https URLs are allowed, not ${url.protocol}`);
    }
    const response = await requestOnce(url, options, signal);
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.location;
      if (!location) throw failed(url.href, `HTTP ${response.status} without a Location`);
      if (hop >= options.maxRedirects)
        throw failed(rawUrl, `more than ${options.maxRedirects} redirects`);
      url = new URL(location, url);
      continue;
    }
    return { data: response.body, contentType: response.headers['content-type'], url: url.href };
  }
}
