import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 16 * 256;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const pool = Buffer.alloc(POOL_SIZE);
const out = Buffer.alloc(36);
let offset = POOL_SIZE;

/**
 * A random (version 4) UUID. Unlike `crypto.randomUUID()`, whose result is a tree of ~20 concatenated
 * strings (~490 bytes of heap), this returns one flat 36-character string (~64 bytes): it matters
 * when 100,000 sends are queued.
 */
export function newTrackingId(): string {
  if (offset >= POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  let at = 0;
  for (let i = 0; i < 16; i++) {
    let byte = pool[offset + i];
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    if (i === 4 || i === 6 || i === 8 || i === 10) out[at++] = 0x2d;
    out[at++] = HEX[byte >> 4];
    out[at++] = HEX[byte & 0x0f];
  }
  offset += 16;
  return out.toString('latin1', 0, 36);
}
