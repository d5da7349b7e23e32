/**
 * A hung page (the wwebjs engine's `disconnected` cause, details `reason: 'page_hung'`) makes the
 * capability it names degraded in the client's health, with the reason; other causes do not.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { EngineHealthMonitor } from '../../src/client/connection/engine-health.js';
import type { EngineHealth } from '../../src/engines/health.js';
import { WakitError } from '../../src/errors/index.js';
import { systemClock } from '../../src/kernel/clock.js';

describe('engine health: a hung page degrades the capability it names', () => {
  function monitor(): { health: EngineHealthMonitor; changes: EngineHealth[] } {
    const changes: EngineHealth[] = [];
    const health = new EngineHealthMonitor({
      client: 'bot',
      engine: () => null,
      clock: systemClock,
      intervalMs: 0,
      log: pino({ level: 'silent' }),
      changed: (h) => changes.push(h),
      held: () => 0,
      retryHeld: () => undefined,
    });
    return { health, changes };
  }

  it('a page_hung cause: degraded, the capability broken with the reason, an engine.health change', () => {
    const { health, changes } = monitor();
    health.degradedBy(
      new WakitError('TIMEOUT', 'WhatsApp Web is hung', {
        details: { reason: 'page_hung', capability: 'contacts.lid', detail: 'timed out twice' },
      }),
    );
    expect(changes).to.have.length(1);
    expect(health.current).to.include({ status: 'degraded' });
    expect(health.current?.broken).to.deep.equal(['contacts.lid']);
    expect(health.current?.capabilities['contacts.lid']).to.deep.equal({
      ok: false,
      detail: 'timed out twice',
    });
  });

  it('any other cause changes nothing', () => {
    const { health, changes } = monitor();
    health.degradedBy(new WakitError('TIMEOUT', 'WhatsApp Web did not load'));
    health.degradedBy(new Error('page_hung'));
    health.degradedBy(undefined);
    expect(changes).to.have.length(0);
    expect(health.current).to.equal(null);
  });
});
