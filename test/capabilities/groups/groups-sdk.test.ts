/**
 * Groups through the SDK on the simulator: every operation, the per-participant results, the
 * permission errors, and the `group.*` events every member (bots and phones) sees.
 */
import { expect } from 'chai';
import { isWakitError, type BotClient, type Sdk } from '../../../src/index.js';
import type {
  GroupJoinEvent,
  GroupLeaveEvent,
  GroupUpdateEvent,
} from '../../../src/entries/types.js';
import type { SimPhone } from '../../../src/engines/simulator/index.js';
import { expectCode } from '../../engines/engine-contract.js';
import { linkedClient, simulatorSdk, tempDir } from '../../helpers/sdk-fixtures.js';

const BOT = '15550000001@c.us';
const BOT2 = '15550000002@c.us';
const ALICE = '15550001111@c.us';
const BOB = '15550002222@c.us';
const CAROL = '15550003333@c.us';
const DAVE = '15550004444@c.us';
const UNREGISTERED = '19990009999@c.us';
const GROUP = '120363000000000050@g.us';

interface Seen {
  join: GroupJoinEvent[];
  leave: GroupLeaveEvent[];
  update: GroupUpdateEvent[];
}

function watch(client: BotClient): Seen {
  const seen: Seen = { join: [], leave: [], update: [] };
  client.on('group.join', (e) => seen.join.push(e));
  client.on('group.leave', (e) => seen.leave.push(e));
  client.on('group.update', (e) => seen.update.push(e));
  return seen;
}

describe('groups (SDK on the simulator)', () => {
  let sdk: Sdk;
  let cleanup: () => Promise<void>;
  let bot: BotClient;
  let bot2: BotClient;
  let seen: Seen;
  let seen2: Seen;
  let alice: SimPhone;
  let bob: SimPhone;
  let carol: SimPhone;

  beforeEach(async () => {
    const tmp = await tempDir('wakit-groups-');
    cleanup = tmp.cleanup;
    sdk = simulatorSdk(tmp.dir);
    alice = sdk.simulator.phone(ALICE, { pushname: 'Alice' });
    bob = sdk.simulator.phone(BOB, { pushname: 'Bob', groupAdd: 'nobody' });
    carol = sdk.simulator.phone(CAROL, { pushname: 'Carol', groupAdd: 'contacts' });
    sdk.simulator.phone(DAVE, { pushname: 'Dave' });
    bot = await linkedClient(sdk, 'bot', BOT.slice(0, -5));
    bot2 = await linkedClient(sdk, 'bot2', BOT2.slice(0, -5));
    seen = watch(bot);
    seen2 = watch(bot2);
  });

  afterEach(async () => {
    await sdk.stop({ drainTimeoutMs: 100 });
    await cleanup();
  });

  /** A group where bot is admin, bot2 and Alice are members and Dave is the owner. */
  function adminGroup(opts: { infoAdminsOnly?: boolean } = {}) {
    return sdk.simulator.group({
      id: GROUP,
      name: 'Team',
      owner: DAVE,
      members: [BOT, BOT2, ALICE],
      admins: [BOT],
      ...opts,
    });
  }

  it('createGroup: the creator is superadmin; added, invited (privacy) and refused per person', async () => {
    carol.addContact(BOT);
    const created = await bot.groups.create('  Project X ', [
      ALICE,
      BOB,
      UNREGISTERED,
      CAROL,
      DAVE,
    ]);
    expect(created.subject).to.equal('Project X');
    expect(created.id).to.match(/^120363\d{12}@g\.us$/);
    expect(created.participants).to.deep.equal([
      { id: ALICE, outcome: 'added' },
      {
        id: BOB,
        outcome: 'invited',
        message: 'their privacy settings allow invitations only: an invitation was sent',
      },
      {
        id: UNREGISTERED,
        outcome: 'refused',
        reason: 'not_registered',
        message: 'not on WhatsApp',
      },
      { id: CAROL, outcome: 'added' },
      { id: DAVE, outcome: 'added' },
    ]);
    const info = await bot.groups.get(created.id);
    expect(info).to.deep.include({
      id: created.id,
      subject: 'Project X',
      description: '',
      owner: BOT,
      settings: { messagesAdminsOnly: false, infoAdminsOnly: false },
    });
    expect(Date.parse(info.createdAt!)).to.be.closeTo(Date.now(), 60_000);
    expect(info.participants).to.deep.equal([
      { id: BOT, role: 'superadmin' },
      { id: ALICE, role: 'member' },
      { id: CAROL, role: 'member' },
      { id: DAVE, role: 'member' },
    ]);
    const join = {
      groupId: created.id,
      participants: [BOT, ALICE, CAROL, DAVE],
      how: 'added',
      by: BOT,
    };
    expect(seen.join).to.have.length(1);
    expect(seen.join[0]).to.deep.include(join);
    expect(alice.groupEvents.map((e) => e.event)).to.deep.equal(['group.join']);
    expect(alice.groupEvents[0]?.data).to.deep.include(join);
    expect(bob.groupEvents).to.have.length(0);
    expect(seen2.join).to.have.length(0); // bot2 is not in it
  });

  it('a "contacts only" person who has not saved the bot is invited, not added', async () => {
    const created = await bot.groups.create('G', [CAROL]);
    expect(created.participants[0]).to.include({ id: CAROL, outcome: 'invited' });
    expect((await bot.groups.get(created.id)).participants.map((p) => p.id)).to.deep.equal([BOT]);
  });

  it('addParticipants: per-person results, and every member (bots and phones) sees group.join', async () => {
    adminGroup();
    const results = await bot.groups.addParticipants(GROUP, [
      CAROL,
      ALICE,
      UNREGISTERED,
      BOB,
      '+1 555 000 3333',
    ]);
    expect(results.map((r) => [r.id, r.outcome, r.reason])).to.deep.equal([
      [CAROL, 'invited', undefined],
      [ALICE, 'refused', 'already_member'],
      [UNREGISTERED, 'refused', 'not_registered'],
      [BOB, 'invited', undefined],
    ]);
    const added = await bot.groups.addParticipants(GROUP, ['15550005555']);
    expect(added).to.deep.equal([
      {
        id: '15550005555@c.us',
        outcome: 'refused',
        reason: 'not_registered',
        message: 'not on WhatsApp',
      },
    ]);
    const eve = sdk.simulator.phone('15550005555');
    expect(await bot.groups.addParticipants(GROUP, [eve.id])).to.deep.equal([
      { id: eve.id, outcome: 'added' },
    ]);
    const expected = { groupId: GROUP, participants: [eve.id], how: 'added', by: BOT };
    expect(seen.join.at(-1)).to.deep.include(expected);
    expect(seen2.join.at(-1)).to.deep.include(expected);
    expect(alice.groupEvents.at(-1)?.data).to.deep.include(expected);
    expect(eve.groupEvents.at(-1)?.data).to.deep.include(expected);
    expect(sdk.simulator.phone(DAVE).groupEvents.at(-1)?.data).to.deep.include(expected);
  });

  it('a non-admin adding someone is PERMISSION_DENIED (missing admin); a non-member too (missing membership)', async () => {
    adminGroup();
    const error = await expectCode(bot2.groups.addParticipants(GROUP, [DAVE]), 'PERMISSION_DENIED');
    expect(error.status).to.equal(403);
    expect(error.details).to.deep.equal({
      groupId: GROUP,
      action: 'add_participants',
      missing: 'admin',
    });
    const phone = await expectCode(
      alice.groups.addParticipants(GROUP, [CAROL]),
      'PERMISSION_DENIED',
    );
    expect(phone.details).to.deep.include({ missing: 'admin' });
    const outsider = await expectCode(
      bob.groups.addParticipants(GROUP, [CAROL]),
      'PERMISSION_DENIED',
    );
    expect(outsider.details).to.deep.include({ action: 'add_participants', missing: 'membership' });
    const notMember = await expectCode(bob.groups.get(GROUP), 'PERMISSION_DENIED');
    expect(notMember.details).to.deep.equal({
      groupId: GROUP,
      action: 'get_group',
      missing: 'membership',
    });
    await expectCode(bot.groups.get('120363000000000099@g.us'), 'CHAT_NOT_FOUND');
    expect(seen.join).to.have.length(0);
  });

  it('removeParticipants: removed / not_member / is_owner / is_self; group.leave reaches the removed too', async () => {
    adminGroup();
    const results = await bot.groups.removeParticipants(GROUP, [ALICE, CAROL, DAVE, BOT]);
    expect(results.map((r) => [r.id, r.outcome, r.reason])).to.deep.equal([
      [ALICE, 'removed', undefined],
      [CAROL, 'refused', 'not_member'],
      [DAVE, 'refused', 'is_owner'],
      [BOT, 'refused', 'is_self'],
    ]);
    const expected = { groupId: GROUP, participants: [ALICE], how: 'removed', by: BOT };
    expect(seen.leave).to.have.length(1);
    expect(seen.leave[0]).to.deep.include(expected);
    expect(seen2.leave[0]).to.deep.include(expected);
    expect(alice.groupEvents.at(-1)).to.deep.include({ event: 'group.leave' });
    await expectCode(alice.send(GROUP, 'still here?'), 'PERMISSION_DENIED');
    const members = (await bot.groups.get(GROUP)).participants.map((p) => p.id);
    expect(members).to.not.include(ALICE);
  });

  it('a phone creates a group with the bot, promotes it, then removes it: the bot sees every event', async () => {
    const created = await alice.groups.create('Family', [BOT, DAVE]);
    expect(created.participants).to.deep.equal([
      { id: BOT, outcome: 'added' },
      { id: DAVE, outcome: 'added' },
    ]);
    expect(seen.join).to.have.length(1);
    expect(seen.join[0]).to.deep.include({
      groupId: created.id,
      how: 'added',
      by: ALICE,
      participants: [ALICE, BOT, DAVE],
    });
    await alice.groups.promoteParticipants(created.id, [BOT]);
    expect(seen.update.at(-1)).to.deep.include({
      change: 'promote',
      participants: [BOT],
      by: ALICE,
    });
    expect(await bot.groups.isAdmin(created.id, BOT)).to.equal(true);
    await alice.groups.removeParticipants(created.id, [BOT]);
    expect(seen.leave.at(-1)).to.deep.include({
      groupId: created.id,
      participants: [BOT],
      how: 'removed',
      by: ALICE,
    });
    await expectCode(bot.sendTextMessage({ to: created.id, text: 'hi' }), 'PERMISSION_DENIED');
  });

  it('promote and demote: per-person results, group.update for every member', async () => {
    adminGroup();
    const promoted = await bot.groups.promoteParticipants(GROUP, [BOT2, BOT, CAROL]);
    expect(promoted.map((r) => [r.id, r.outcome, r.reason])).to.deep.equal([
      [BOT2, 'promoted', undefined],
      [BOT, 'refused', 'already_admin'],
      [CAROL, 'refused', 'not_member'],
    ]);
    const update = { groupId: GROUP, change: 'promote', participants: [BOT2], by: BOT };
    expect(seen.update.at(-1)).to.deep.include(update);
    expect(seen2.update.at(-1)).to.deep.include(update);
    expect(alice.groupEvents.at(-1)?.data).to.deep.include(update);
    // now an admin, bot2 may add people
    expect(
      await bot2.groups.addParticipants(GROUP, [CAROL.replace('3333', '6666')]),
    ).to.have.length(1);
    const demoted = await bot2.groups.demoteParticipants(GROUP, [BOT, DAVE, ALICE]);
    expect(demoted.map((r) => [r.id, r.outcome, r.reason])).to.deep.equal([
      [BOT, 'demoted', undefined],
      [DAVE, 'refused', 'is_owner'],
      [ALICE, 'refused', 'not_admin'],
    ]);
    expect(seen.update.at(-1)).to.deep.include({ change: 'demote', participants: [BOT], by: BOT2 });
    const roles = Object.fromEntries(
      (await bot.groups.get(GROUP)).participants.map((p) => [p.id, p.role]),
    );
    expect(roles).to.deep.equal({
      [BOT]: 'member',
      [BOT2]: 'admin',
      [ALICE]: 'member',
      [DAVE]: 'superadmin',
    });
    await expectCode(bot.groups.promoteParticipants(GROUP, [ALICE]), 'PERMISSION_DENIED');
  });

  it('subject and description: members may change them unless infoAdminsOnly', async () => {
    adminGroup();
    await bot2.groups.setSubject(GROUP, 'Renamed');
    await bot2.groups.setDescription(GROUP, 'About us');
    expect(seen.update.map((u) => u.change)).to.deep.equal(['subject', 'description']);
    expect(seen.update[0]).to.deep.include({ change: 'subject', subject: 'Renamed', by: BOT2 });
    expect(seen.update[1]).to.deep.include({ change: 'description', description: 'About us' });
    expect(alice.groupEvents.map((e) => e.event)).to.deep.equal(['group.update', 'group.update']);
    expect(await bot.groups.get(GROUP)).to.deep.include({
      subject: 'Renamed',
      description: 'About us',
    });
    expect(await bot.groups.setSettings(GROUP, { infoAdminsOnly: true })).to.deep.equal({
      messagesAdminsOnly: false,
      infoAdminsOnly: true,
    });
    const error = await expectCode(bot2.groups.setSubject(GROUP, 'Nope'), 'PERMISSION_DENIED');
    expect(error.details).to.deep.equal({
      groupId: GROUP,
      action: 'set_subject',
      missing: 'admin',
      setting: 'infoAdminsOnly',
    });
    await expectCode(bot2.groups.setDescription(GROUP, 'Nope'), 'PERMISSION_DENIED');
    await bot.groups.setSubject(GROUP, 'Admins rule');
    expect((await bot2.groups.get(GROUP)).subject).to.equal('Admins rule');
  });

  it('update: subject, description and settings in that order; resolves to the group', async () => {
    adminGroup();
    const changes = { subject: ' Both ', description: 'Two', settings: { infoAdminsOnly: true } };
    const group = await bot.groups.update(GROUP, changes);
    expect(group).to.deep.include({ subject: 'Both', description: 'Two' });
    expect(group.settings).to.deep.equal({ messagesAdminsOnly: false, infoAdminsOnly: true });
    expect(seen.update.map((u) => u.change)).to.deep.equal(['subject', 'description', 'settings']);
    await expectCode(bot.groups.update(GROUP, { subject: '' }), 'VALIDATION_FAILED');
    await expectCode(bot2.groups.update(GROUP, { subject: 'x' }), 'PERMISSION_DENIED');
    expect((await bot.groups.get(GROUP)).subject).to.equal('Both');
  });

  it('settings: admins only; messagesAdminsOnly stops members from sending; events carry the change', async () => {
    adminGroup();
    const denied = await expectCode(
      bot2.groups.setSettings(GROUP, { messagesAdminsOnly: true }),
      'PERMISSION_DENIED',
    );
    expect(denied.details).to.deep.include({ action: 'set_settings', missing: 'admin' });
    await alice.send(GROUP, 'before');
    expect(await bot.groups.setSettings(GROUP, { messagesAdminsOnly: true })).to.deep.equal({
      messagesAdminsOnly: true,
      infoAdminsOnly: false,
    });
    expect(seen2.update.at(-1)).to.deep.include({
      change: 'settings',
      settings: { messagesAdminsOnly: true },
      by: BOT,
    });
    await expectCode(alice.send(GROUP, 'after'), 'PERMISSION_DENIED');
    await expectCode(bot2.sendTextMessage({ to: GROUP, text: 'x' }), 'PERMISSION_DENIED');
    const count = seen.update.length;
    await bot.groups.setSettings(GROUP, { messagesAdminsOnly: true });
    expect(seen.update.length, 'no change, no event').to.equal(count);
    await expectCode(bot.groups.setSettings(GROUP, {}), 'VALIDATION_FAILED');
  });

  it('invite codes: admins get and revoke them; people join by code or link (group.join invite_link)', async () => {
    adminGroup();
    await expectCode(bot2.groups.getInviteCode(GROUP), 'PERMISSION_DENIED');
    const code = await bot.groups.getInviteCode(GROUP);
    expect(code).to.match(/^[A-Za-z0-9]{22}$/);
    expect(await bot.groups.getInviteCode(GROUP)).to.equal(code);
    expect(await carol.groups.joinByInvite(code)).to.equal(GROUP);
    const expected = { groupId: GROUP, participants: [CAROL], how: 'invite_link' };
    expect(seen.join.at(-1)).to.deep.include(expected);
    expect(seen2.join.at(-1)).to.deep.include(expected);
    expect(carol.groupEvents.at(-1)?.data).to.deep.include(expected);
    const fresh = await bot.groups.revokeInvite(GROUP);
    expect(fresh).to.not.equal(code);
    const invalid = await expectCode(bob.groups.joinByInvite(code), 'GROUP_INVITE_INVALID');
    expect(invalid.status).to.equal(404);
    await bot2.groups.leave(GROUP);
    expect(await bot2.groups.join(`https://chat.whatsapp.com/${fresh}`)).to.equal(GROUP);
    expect(seen.join.at(-1)).to.deep.include({ participants: [BOT2], how: 'invite_link' });
    await expectCode(bot.groups.join('not a code!'), 'VALIDATION_FAILED');
  });

  it('leaveGroup: every member sees it; the last admin leaving makes someone admin', async () => {
    sdk.simulator.group({ id: GROUP, members: [BOT, BOT2, ALICE], admins: [BOT] });
    await bot.groups.leave(GROUP);
    const expected = { groupId: GROUP, participants: [BOT], how: 'left', by: BOT };
    expect(seen.leave).to.have.length(1);
    expect(seen.leave[0]).to.deep.include(expected);
    expect(seen2.leave[0]).to.deep.include(expected);
    expect(alice.groupEvents[0]?.data).to.deep.include(expected);
    expect(seen2.update.at(-1)).to.deep.include({ change: 'promote', participants: [BOT2] });
    expect(seen2.update.at(-1)).to.not.have.property('by');
    await expectCode(bot.groups.get(GROUP), 'PERMISSION_DENIED');
    await expectCode(bot.groups.leave(GROUP), 'PERMISSION_DENIED');
    expect(await bot2.groups.isAdmin(GROUP, BOT2)).to.equal(true);
    expect(await bot2.groups.isAdmin(GROUP, ALICE)).to.equal(false);
    await expectCode(bot2.groups.isAdmin(GROUP, GROUP), 'INVALID_CHAT_ID');
  });

  it('refuses bad input with stable codes, and needs the client READY', async () => {
    await expectCode(bot.groups.get(ALICE), 'INVALID_CHAT_ID');
    await expectCode(bot.groups.create('', [ALICE]), 'VALIDATION_FAILED');
    await expectCode(bot.groups.create('x'.repeat(101), [ALICE]), 'VALIDATION_FAILED');
    await expectCode(bot.groups.create('ok', [GROUP]), 'INVALID_CHAT_ID');
    await expectCode(bot.groups.addParticipants(GROUP, []), 'VALIDATION_FAILED');
    await expectCode(bot.groups.setDescription(GROUP, 'x'.repeat(2049)), 'VALIDATION_FAILED');
    await bot2.stop();
    const error = await expectCode(bot2.groups.get(GROUP), 'CLIENT_NOT_READY');
    expect(isWakitError(error, 'CLIENT_NOT_READY')).to.equal(true);
    await expectCode(bot2.groups.create('x', []), 'CLIENT_NOT_READY');
  });
});
