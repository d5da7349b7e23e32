/**
 * Groups on the real whatsapp-web.js 1.34.7 + WhatsApp Web double, at the engine port: create
 * with per-participant results, read, add / promote / demote / remove, subject, description,
 * settings, invite codes, leave and join by invite.
 */
import { expect } from 'chai';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import { DoubleHarness } from './harness.js';
import { ALICE, BOB, BOT, NOBODY } from './world.js';

type NetworkGroup = {
  subject: string;
  desc: string;
  announce: boolean;
  restrict: boolean;
  participants: Array<{ id: string; isAdmin: boolean }>;
};

describe('groups on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(60_000);
  let h: DoubleHarness;
  let engine: WwebjsEngine;

  beforeEach(async () => {
    h = await DoubleHarness.create();
    engine = await h.linkedEngine();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('creates a group with a result per participant, then manages its members and settings', async () => {
    const created = await engine.ops.groups.create('Launch', [ALICE.pn, NOBODY]);
    expect(created.subject).to.equal('Launch');
    expect(created.id).to.match(/@g\.us$/);
    const outcome = Object.fromEntries(created.participants.map((p) => [p.id, p.outcome]));
    expect(outcome).to.deep.equal({ [ALICE.pn]: 'added', [NOBODY]: 'refused' });

    const added = await engine.ops.groups.addParticipants(created.id, [BOB.pn, ALICE.pn]);
    expect(added.map((p) => [p.id, p.outcome])).to.deep.equal([
      [BOB.pn, 'added'],
      [ALICE.pn, 'refused'],
    ]);
    expect(
      (await engine.ops.groups.promoteParticipants(created.id, [ALICE.pn]))[0].outcome,
    ).to.equal('promoted');
    expect(
      (await engine.ops.groups.demoteParticipants(created.id, [ALICE.pn]))[0].outcome,
    ).to.equal('demoted');
    expect((await engine.ops.groups.removeParticipants(created.id, [BOB.pn]))[0].outcome).to.equal(
      'removed',
    );
    await engine.ops.groups.setSubject(created.id, 'Launch day');
    await engine.ops.groups.setDescription(created.id, 'T minus 1');
    await engine.ops.groups.setSettings(created.id, {
      messagesAdminsOnly: true,
      infoAdminsOnly: true,
    });

    const info = await engine.ops.groups.get(created.id);
    expect(info).to.deep.include({ subject: 'Launch day', description: 'T minus 1' });
    expect(info.settings).to.deep.equal({ messagesAdminsOnly: true, infoAdminsOnly: true });
    const network = await h.phone<NetworkGroup>('group', created.id);
    expect(network.participants).to.deep.equal([
      { id: BOT.pn, isAdmin: true },
      { id: ALICE.pn, isAdmin: false },
    ]);
    expect(network).to.include({ announce: true, restrict: true, subject: 'Launch day' });
  });

  it('invite codes: read, revoke (a new one), leave and join back by the code', async () => {
    const { id } = await engine.ops.groups.create('Club', [ALICE.pn]);
    const code = await engine.ops.groups.getInviteCode(id);
    const fresh = await engine.ops.groups.revokeInvite(id);
    expect(fresh).to.be.a('string').and.not.equal(code);
    await engine.ops.groups.leave(id);
    let network = await h.phone<NetworkGroup>('group', id);
    expect(network.participants.map((p) => p.id)).to.deep.equal([ALICE.pn]);
    expect(await engine.ops.groups.joinByInvite(fresh)).to.equal(id);
    network = await h.phone<NetworkGroup>('group', id);
    expect(network.participants.map((p) => p.id)).to.include(BOT.pn);
  });
});
