import { expect } from 'chai';
import { parseConfig } from '../../src/config/index.js';
import { WakitError } from '../../src/errors/index.js';
import { Governor } from '../../src/governor/governor.js';
import { MemoryAccountStore } from '../../src/governor/memory-account-store.js';
import type { ErrorReport } from '../../src/kernel/error-sink.js';
import { systemClock } from '../../src/kernel/clock.js';
import type { TrackedSend } from '../../src/queue/index.js';

/** An account store that cannot be read (a corrupt or lost file). */
class UnreadableStore extends MemoryAccountStore {
  override contact(): never {
    throw new Error('SQLITE_CORRUPT: database disk image is malformed');
  }
}

/** An account store whose disk is gone: it cannot record a restriction. */
class UnwritableStore extends MemoryAccountStore {
  override setRestriction(): Promise<void> {
    return Promise.reject(new Error('SQLITE_READONLY: attempt to write a readonly database'));
  }
}

/** The standard governor of client `bot` on `store`, with an error sink that keeps its reports. */
function governorOn(store: MemoryAccountStore) {
  const reports: ErrorReport[] = [];
  const config = parseConfig({ auth: { type: 'local' }, governor: { preset: 'standard' } });
  const governor = new Governor({
    config,
    store,
    clock: systemClock,
    errors: { report: (report) => void reports.push(report) },
  });
  return { account: governor.forClient('bot'), reports };
}

describe('governor: a restriction the store cannot record reaches the error sink', () => {
  it('reports it once (source queue, event governor.restrict, the client), and the pause still holds in memory', async () => {
    const { account, reports } = governorOn(new UnwritableStore());
    const refused = {
      id: 't1',
      status: 'failed',
      error: new WakitError('ACCOUNT_RESTRICTED', 'refused: 463'),
    } as unknown as TrackedSend;
    account.observe(refused);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reports).to.have.length(1);
    expect(reports[0]).to.include({ source: 'queue', event: 'governor.restrict', client: 'bot' });
    expect(String(reports[0]?.error)).to.match(/SQLITE_READONLY/);
    expect(account.info().restricted?.reason).to.equal('send-refused');
    account.close();
  });

  it('a check the store cannot answer lets the send go and reports it (event governor.check), each time', async () => {
    const { account, reports } = governorOn(new UnreadableStore());
    const send = {
      id: 't1',
      chatId: '15550001111@c.us',
      priority: 'bulk' as const,
      bypassBudget: false,
    };
    expect(await account.check({ ...send }, Date.now())).to.equal('go');
    expect(await account.check({ ...send, id: 't2' }, Date.now())).to.equal('go');
    expect(reports.map((r) => [r.source, r.event, r.client])).to.deep.equal([
      ['queue', 'governor.check', 'bot'],
      ['queue', 'governor.check', 'bot'],
    ]);
    expect(String(reports[0]?.error)).to.match(/SQLITE_CORRUPT/);
    account.close();
  });
});
