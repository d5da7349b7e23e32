import { expect } from 'chai';
import { Backoff, computeBackoff } from '../../src/entries/kernel.js';

/** A random source returning the given values in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length];
};

describe('backoff (capped exponential with jitter)', () => {
  const policy = { initialMs: 100, maxMs: 1_000 };

  it('none: plain doubling up to the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6].map((n) =>
      computeBackoff({ ...policy, jitter: 'none' }, n, () => 0.5),
    );
    expect(delays).to.deep.equal([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('full (the default): uniform in [0, ceiling], the ceiling reachable, never above the cap', () => {
    expect(computeBackoff(policy, 3, () => 0)).to.equal(0);
    expect(computeBackoff(policy, 3, () => 0.5)).to.equal(200);
    expect(computeBackoff(policy, 3, () => 0.999_999)).to.equal(400);
    expect(computeBackoff(policy, 30, () => 0.999_999)).to.equal(1_000);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const delay = computeBackoff(policy, attempt);
      expect(delay)
        .to.be.at.least(0)
        .and.at.most(Math.min(1_000, 100 * 2 ** (attempt - 1)));
      expect(Number.isInteger(delay)).to.equal(true);
    }
  });

  it('without a cap the ceiling keeps doubling', () => {
    expect(computeBackoff({ initialMs: 2_000, jitter: 'none' }, 3)).to.equal(8_000);
    expect(computeBackoff({ initialMs: 2_000 }, 3, () => 0.5)).to.equal(4_000);
  });

  it('decorrelated: uniform in [initial, 3 × previous], capped', () => {
    const backoff = new Backoff(
      { ...policy, jitter: 'decorrelated' },
      sequence(0.999_999, 0.999_999, 0, 0.999_999),
    );
    expect(backoff.next()).to.equal(300); // [100, 300]
    expect(backoff.next()).to.equal(900); // [100, 900]
    expect(backoff.next()).to.equal(100); // [100, 2 700] at its low end
    expect(backoff.next()).to.equal(300); // [100, 300] again: it follows the previous delay
    expect(backoff.attempts).to.equal(4);
    const capped = new Backoff({ ...policy, jitter: 'decorrelated' }, () => 0.999_999);
    expect([1, 2, 3, 4].map(() => capped.next())).to.deep.equal([300, 900, 1_000, 1_000]);
  });

  it('Backoff counts attempts and starts over after reset()', () => {
    const backoff = new Backoff({ ...policy, jitter: 'none' });
    expect([backoff.next(), backoff.next(), backoff.next()]).to.deep.equal([100, 200, 400]);
    expect(backoff.attempts).to.equal(3);
    backoff.reset();
    expect(backoff.attempts).to.equal(0);
    expect(backoff.next()).to.equal(100);
  });

  it('spreads delays: full jitter draws from the whole range', () => {
    const draws = new Set(Array.from({ length: 200 }, () => computeBackoff(policy, 4)));
    expect(draws.size).to.be.greaterThan(50);
  });
});
