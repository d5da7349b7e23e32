import { expect } from 'chai';
import { newTrackingId } from '../../src/queue/tracking-id.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('tracking ids', () => {
  it('are version 7 UUIDs carrying their millisecond, unique and ordered by time', () => {
    const at = Date.UTC(2026, 10, 22, 12, 0, 0, 123);
    const id = newTrackingId(at);
    expect(id).to.match(V7);
    expect(parseInt(id.replaceAll('-', '').slice(0, 12), 16)).to.equal(at);

    const ids = Array.from({ length: 5_000 }, (_, i) => newTrackingId(at + Math.floor(i / 50)));
    expect(new Set(ids).size).to.equal(ids.length);
    for (let i = 50; i < ids.length; i += 50) expect(ids[i - 1] < ids[i], `${i}`).to.equal(true);
    // Within one millisecond the rest is random.
    const sameMs = ids.slice(0, 50).map((x) => x.slice(15));
    expect(new Set(sameMs).size).to.equal(50);
    expect(newTrackingId()).to.match(V7);
  });
});
