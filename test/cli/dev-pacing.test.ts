// `wakit dev` paces lightly on the simulator; `wakit start` keeps the configured pacing (issue 29,
// item 12).
import { expect } from 'chai';
import { devConfig } from '../../src/cli/run.js';
import { parseConfig } from '../../src/config/validate.js';

describe('wakit dev pacing', () => {
  it('caps the default pacing (1 s + 1.5 s jitter, 3 s per chat) to a fraction of a second', () => {
    const config = parseConfig({ auth: { type: 'local' }, clients: ['bot'] });
    expect(config.queue).to.include({ minGapMs: 1_000, jitterMs: 1_500, perChatGapMs: 3_000 });
    const dev = devConfig(config, '/srv/bot');
    expect(dev.queue).to.include({ minGapMs: 100, jitterMs: 200, perChatGapMs: 300 });
    expect(dev.queue.lightGapMs).to.be.at.most(100);
    expect(dev.engine.type).to.equal('simulator');
  });

  it('keeps lower configured values', () => {
    const config = parseConfig({
      auth: { type: 'local' },
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 50 },
    });
    expect(devConfig(config, '/srv/bot').queue).to.include({
      minGapMs: 0,
      jitterMs: 0,
      perChatGapMs: 50,
    });
  });
});
