/**
 * The Engine contract (test/engines/engine-contract.ts) on the real whatsapp-web.js 1.34.7 in the
 * real Chromium, on the WhatsApp Web double, beside the simulator and the hand-written fake.
 */
import { describeEngineContract, type EngineHarness } from '../engines/engine-contract.js';
import { DoubleHarness, savedProfile } from './harness.js';
import { ALICE, ANNOUNCE_GROUP, NOBODY } from './world.js';

/** `disconnected` reasons as the phone side / the network produce them. */
const DROPS: Record<string, (h: DoubleHarness) => Promise<unknown>> = {
  connection_lost: (h) => h.phone('setState', 'TIMEOUT'),
  conflict: (h) => h.phone('setState', 'CONFLICT'),
  banned: (h) => h.phone('setState', 'TOS_BLOCK'),
  session_expired: (h) => h.phone('expire'),
  logout: (h) => h.phone('unpair'),
  browser_crashed: (h) => {
    const pid = h.browserPid();
    if (pid) process.kill(pid, 'SIGKILL');
    return Promise.resolve();
  },
};

async function doubleContractHarness(): Promise<EngineHarness> {
  const h = await DoubleHarness.create();
  return {
    engine: h.engine(),
    deadlineMs: 15_000,
    link: (qr) => h.link(qr),
    contact: ALICE.pn,
    unknownChat: NOBODY,
    restrictedGroup: ANNOUNCE_GROUP.id,
    receiveText: async (from, text) => {
      await h.phone('receive', { from, body: text });
    },
    receiveMedia: async (from, media) => {
      await h.phone('receive', {
        from,
        media: media.data.toString('base64'),
        mimetype: media.mimetype,
        filename: media.filename,
        caption: media.caption,
      });
    },
    dropConnection: (reason) => {
      const drop = DROPS[reason];
      if (!drop) throw new Error(`no way to drop the connection with ${reason}`);
      void drop(h);
    },
    reopen: () => Promise.resolve(h.engine()),
    readSavedSession: () => savedProfile(h),
    cleanup: () => h.cleanup(),
  };
}

describeEngineContract(
  'whatsapp-web.js 1.34.7 on the WhatsApp Web double (LocalAuth)',
  doubleContractHarness,
);
