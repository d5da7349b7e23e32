/** Identifiers of the simulator: QR strings, message ids, session bytes, pairing codes. */
import { createHash, randomBytes } from 'node:crypto';

export const USER_SUFFIX = '@c.us';
export const GROUP_SUFFIX = '@g.us';

/** `<digits>` or `<digits>@c.us` (spaces, dashes and a leading + tolerated) → digits, else null. */
export function toNumber(value: string): string | null {
  const raw = value.endsWith(USER_SUFFIX) ? value.slice(0, -USER_SUFFIX.length) : value;
  const digits = raw.replace(/[\s+-]/g, '');
  return /^\d{5,20}$/.test(digits) ? digits : null;
}

export function userId(number: string): string {
  return `${number}${USER_SUFFIX}`;
}

export const LID_SUFFIX = '@lid';

/**
 * The LID digits of a number: 15 digits derived from it (stable across runs, unrelated-looking,
 * like WhatsApp's), unless a phone was given its own.
 */
export function deriveLid(number: string): string {
  const hash = createHash('sha256').update(`lid:${number}`).digest();
  return `1${(hash.readBigUInt64BE(0) % 10n ** 14n).toString().padStart(14, '0')}`;
}

/** A random-looking base64 string of `bytes` bytes, drawn from `random`. */
function base64Of(bytes: number, random: () => number): string {
  const buf = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) buf[i] = Math.floor(random() * 256);
  return buf.toString('base64');
}

/**
 * A QR payload shaped like WhatsApp Web's: `2@<ref>,<noise public key>,<identity key>,<adv secret>`
 * (the ref is 64 bytes of base64, the keys 32 bytes each).
 */
export function makeQr(random: () => number): string {
  return `2@${base64Of(64, random)},${base64Of(32, random)},${base64Of(32, random)},${base64Of(32, random)}`;
}

/**
 * Stanza ids: `3EB0` + 8 hex digits fixed per network + a 10-digit hex counter (like WhatsApp Web's
 * own 20-hex-digit ids). Cheap enough for the inbound benchmark: no crypto per message.
 */
export class StanzaIds {
  private readonly prefix: string;
  private counter = 0;

  constructor(random: () => number) {
    let hex = '';
    for (let i = 0; i < 8; i++) hex += Math.floor(random() * 16).toString(16);
    this.prefix = `3EB0${hex.toUpperCase()}`;
  }

  /** The sequence number of the id `next()` returns next time. */
  get nextSeq(): number {
    return this.counter + 1;
  }

  next(): string {
    this.counter += 1;
    return this.prefix + this.counter.toString(16).toUpperCase().padStart(10, '0');
  }

  /** The sequence number of a stanza id made here, or -1 for ids this network did not make. */
  seqOf(stanza: string): number {
    if (stanza.length !== this.prefix.length + 10 || !stanza.startsWith(this.prefix)) return -1;
    const seq = Number.parseInt(stanza.slice(this.prefix.length), 16);
    return Number.isSafeInteger(seq) ? seq : -1;
  }
}

/** `fromMe_<chat>_<stanza>[_<author>]` as whatsapp-web.js serializes message ids. */
export function serializeId(
  fromMe: boolean,
  chatId: string,
  stanza: string,
  author?: string,
): string {
  const base = `${fromMe ? 'true' : 'false'}_${chatId}_${stanza}`;
  return author ? `${base}_${author}` : base;
}

/** The stanza part of a serialized id (or the input itself when it is a bare stanza id). */
export function stanzaOf(serialized: string): string {
  const parts = serialized.split('_');
  return parts.length >= 3 ? parts[2] : serialized;
}

/** A stable phone number for a client name: `1555` + 7 digits of a hash of the name. */
export function derivePhone(clientName: string): string {
  const hash = createHash('sha256').update(clientName).digest();
  return `1555${(hash.readUInt32BE(0) % 10_000_000).toString().padStart(7, '0')}`;
}

const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTVWXYZ0123456789';

/** 8 characters, like the codes WhatsApp shows for "link with phone number". */
export function makePairingCode(random: () => number): string {
  let code = '';
  for (let i = 0; i < 8; i++)
    code += PAIRING_ALPHABET[Math.floor(random() * PAIRING_ALPHABET.length)];
  return code;
}

/** What a saved simulator session holds: enough for any network to restore the link. */
export interface SimSession {
  number: string;
  pushname: string;
  /** Identifies this link; a network that revoked it (logout, expiry) refuses it. */
  token: string;
}

const SESSION_FORMAT = 'wakit-simulator-session/1';

export function encodeSession(session: SimSession): Buffer {
  return Buffer.from(JSON.stringify({ format: SESSION_FORMAT, ...session }), 'utf8');
}

/** Parses session bytes; null when they are not a simulator session. */
export function decodeSession(bytes: Buffer): SimSession | null {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    if (
      value.format === SESSION_FORMAT &&
      typeof value.number === 'string' &&
      toNumber(value.number) === value.number &&
      typeof value.pushname === 'string' &&
      typeof value.token === 'string'
    ) {
      return { number: value.number, pushname: value.pushname, token: value.token };
    }
  } catch {
    // not reported: not JSON; no session (null) is the answer
  }
  return null;
}

export function newToken(): string {
  return randomBytes(16).toString('hex');
}
