import { expect } from 'chai';
import { seconds } from '../../../plugins/rest/metrics/rest-metrics.js';

describe('REST metrics: latency between two ISO timestamps', () => {
  it('agrees with Date.parse on one day, across midnight and across years, never negative', () => {
    const pairs: [number, number][] = [
      [Date.UTC(2026, 10, 22, 12, 0, 0, 5), Date.UTC(2026, 10, 22, 12, 0, 0, 250)],
      [Date.UTC(2026, 10, 22, 0, 0, 0, 0), Date.UTC(2026, 10, 22, 23, 59, 59, 999)],
      [Date.UTC(2026, 10, 22, 23, 59, 59, 900), Date.UTC(2026, 10, 23, 0, 0, 0, 100)],
      [Date.UTC(2025, 11, 31, 23, 0, 0, 0), Date.UTC(2026, 0, 1, 1, 0, 0, 0)],
    ];
    for (const [a, b] of pairs) {
      const from = new Date(a).toISOString();
      const to = new Date(b).toISOString();
      expect(seconds(from, to), `${from} → ${to}`).to.equal((b - a) / 1000);
      expect(seconds(to, from)).to.equal(0);
    }
  });
});
