/**
 * The whatsapp-web.js adapter for groups against the fake Client (fake-wwebjs-groups.ts): result
 * shapes and codes mapped to plain data and our errors, permission checks before calls, and the
 * group notifications mapped to group.* events; plus the names it relies on, checked against the
 * installed library's sources.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { type WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { EngineEventName } from '../../src/engines/engine.js';
import { expectCode, nextEvent } from './engine-contract.js';
import {
  BOT,
  CONTACT,
  OPEN_GROUP,
  RESTRICTED_GROUP,
  UNKNOWN,
  populatedNetwork,
  type FakeClient,
  type FakeWhatsAppNetwork,
} from '../helpers/fake-wwebjs-client.js';
import { FakeGroups } from '../helpers/fake-wwebjs-groups.js';
import { linkedWwebjsEngine } from '../helpers/linked-wwebjs-engine.js';

const logger = pino({ level: 'silent' });
const OTHER = '15550002222@c.us';
const PRIVATE = '15550003333@c.us';

describe('wwebjs engine: groups (fake whatsapp-web.js)', function () {
  this.timeout(10_000);
  let dir: string;
  let network: FakeWhatsAppNetwork;
  let groups: FakeGroups;
  let engine: WwebjsEngine;
  let client: FakeClient;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-groups-'));
    network = populatedNetwork({ ackDelayMs: 5 });
    network.register(PRIVATE);
    groups = new FakeGroups(network);
    groups.privacy.add(PRIVATE);
    Object.assign(groups.extraOf(OPEN_GROUP), { subject: 'Open', desc: 'Hi', owner: OTHER });
    network.groups.get(OPEN_GROUP)!.participants.push({ id: OTHER, isAdmin: true });
    ({ engine, client } = await linkedWwebjsEngine(network, dir, logger, groups.bindings()));
  });

  afterEach(async () => {
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const called = (method: string) =>
    groups.calls.filter((c) => c.method === method).map((c) => c.args);

  it('createGroup: 200 added, 403 invited (invite sent) or refused (privacy), 404 not registered; the creator is left out', async () => {
    const created = await engine.ops.groups.create('New', [CONTACT, PRIVATE, UNKNOWN]);
    expect(called('createGroup')).to.deep.equal([['New', [CONTACT, PRIVATE, UNKNOWN]]]);
    expect(created.subject).to.equal('New');
    expect(created.id).to.match(/@g\.us$/);
    expect(created.participants).to.deep.equal([
      { id: CONTACT, outcome: 'added' },
      {
        id: PRIVATE,
        outcome: 'invited',
        message: 'The participant can be added by sending private invitation only',
      },
      {
        id: UNKNOWN,
        outcome: 'refused',
        reason: 'not_registered',
        message: 'The phone number is not registered on WhatsApp',
      },
    ]);
    groups.inviteSent = false;
    const again = await engine.ops.groups.create('Other', [PRIVATE]);
    expect(again.participants[0]).to.include({ outcome: 'refused', reason: 'privacy' });
  });

  it('getGroup: metadata to plain data (owner, creation, roles, settings)', async () => {
    expect(await engine.ops.groups.get(OPEN_GROUP)).to.deep.equal({
      id: OPEN_GROUP,
      subject: 'Open',
      description: 'Hi',
      owner: OTHER,
      createdAt: new Date(1_700_000_000_000).toISOString(),
      participants: [
        { id: BOT, role: 'admin' },
        { id: CONTACT, role: 'member' },
        { id: OTHER, role: 'superadmin' },
      ],
      settings: { messagesAdminsOnly: false, infoAdminsOnly: false },
    });
    await expectCode(engine.ops.groups.get('120363000000000099@g.us'), 'CHAT_NOT_FOUND');
  });

  it('addParticipants: every library code mapped; no admin rights is PERMISSION_DENIED before any call', async () => {
    network.register('15550005555@c.us', '15550006666@c.us');
    groups.forcedCodes.set('15550005555@c.us', 408).set('15550006666@c.us', 419);
    const results = await engine.ops.groups.addParticipants(OPEN_GROUP, [
      CONTACT,
      UNKNOWN,
      PRIVATE,
      '15550005555@c.us',
      '15550006666@c.us',
    ]);
    expect(results.map((r) => [r.id, r.outcome, r.reason])).to.deep.equal([
      [CONTACT, 'refused', 'already_member'],
      [UNKNOWN, 'refused', 'not_registered'],
      [PRIVATE, 'invited', undefined],
      ['15550005555@c.us', 'refused', 'recently_left'],
      ['15550006666@c.us', 'refused', 'group_full'],
    ]);
    const before = called('addParticipants').length;
    const error = await expectCode(
      engine.ops.groups.addParticipants(RESTRICTED_GROUP, [CONTACT]),
      'PERMISSION_DENIED',
    );
    expect(error.details).to.deep.equal({
      groupId: RESTRICTED_GROUP,
      action: 'add_participants',
      missing: 'admin',
    });
    expect(called('addParticipants')).to.have.length(before);
    groups.addError =
      'AddParticipantsError: You have no admin rights to add a participant to a group';
    await expectCode(engine.ops.groups.addParticipants(OPEN_GROUP, [PRIVATE]), 'PERMISSION_DENIED');
  });

  it('remove / promote / demote: refusals decided first, only the rest handed to the library', async () => {
    const removed = await engine.ops.groups.removeParticipants(OPEN_GROUP, [
      CONTACT,
      UNKNOWN,
      OTHER,
      BOT,
    ]);
    expect(removed.map((r) => [r.id, r.outcome, r.reason])).to.deep.equal([
      [CONTACT, 'removed', undefined],
      [UNKNOWN, 'refused', 'not_member'],
      [OTHER, 'refused', 'is_owner'],
      [BOT, 'refused', 'is_self'],
    ]);
    expect(called('removeParticipants')).to.deep.equal([[OPEN_GROUP, [CONTACT]]]);
    network.groups.get(OPEN_GROUP)!.participants.push({ id: PRIVATE, isAdmin: false });
    const promoted = await engine.ops.groups.promoteParticipants(OPEN_GROUP, [PRIVATE, BOT]);
    expect(promoted.map((r) => [r.outcome, r.reason])).to.deep.equal([
      ['promoted', undefined],
      ['refused', 'already_admin'],
    ]);
    expect(called('promoteParticipants')).to.deep.equal([[OPEN_GROUP, [PRIVATE]]]);
    const demoted = await engine.ops.groups.demoteParticipants(OPEN_GROUP, [
      PRIVATE,
      OTHER,
      CONTACT,
    ]);
    expect(demoted.map((r) => [r.outcome, r.reason])).to.deep.equal([
      ['demoted', undefined],
      ['refused', 'is_owner'],
      ['refused', 'not_member'],
    ]);
    expect(called('demoteParticipants')).to.deep.equal([[OPEN_GROUP, [PRIVATE]]]);
    await expectCode(
      engine.ops.groups.removeParticipants(RESTRICTED_GROUP, [OTHER]),
      'PERMISSION_DENIED',
    );
    expect(called('removeParticipants')).to.have.length(1);
  });

  it('subject, description and settings: false from the library is PERMISSION_DENIED; infoAdminsOnly checked first', async () => {
    await engine.ops.groups.setSubject(OPEN_GROUP, 'Renamed');
    await engine.ops.groups.setDescription(OPEN_GROUP, 'New text');
    expect(await engine.ops.groups.get(OPEN_GROUP)).to.deep.include({
      subject: 'Renamed',
      description: 'New text',
    });
    expect(
      await engine.ops.groups.setSettings(OPEN_GROUP, { messagesAdminsOnly: true }),
    ).to.deep.equal({
      messagesAdminsOnly: true,
      infoAdminsOnly: false,
    });
    expect(called('setMessagesAdminsOnly')).to.deep.equal([[OPEN_GROUP, true]]);
    expect(called('setInfoAdminsOnly')).to.have.length(0);
    groups.settersFail = true;
    const error = await expectCode(
      engine.ops.groups.setSubject(OPEN_GROUP, 'x'),
      'PERMISSION_DENIED',
    );
    expect(error.details).to.deep.include({ action: 'set_subject', missing: 'admin' });
    groups.settersFail = false;
    groups.extraOf(RESTRICTED_GROUP).restrict = true;
    const info = await expectCode(
      engine.ops.groups.setDescription(RESTRICTED_GROUP, 'x'),
      'PERMISSION_DENIED',
    );
    expect(info.details).to.deep.equal({
      groupId: RESTRICTED_GROUP,
      action: 'set_description',
      missing: 'admin',
      setting: 'infoAdminsOnly',
    });
    expect(called('setDescription')).to.have.length(1);
    await expectCode(
      engine.ops.groups.setSettings(RESTRICTED_GROUP, { infoAdminsOnly: false }),
      'PERMISSION_DENIED',
    );
  });

  it('invite codes, joining and leaving', async () => {
    const code = await engine.ops.groups.getInviteCode(OPEN_GROUP);
    expect(code).to.equal(groups.extraOf(OPEN_GROUP).inviteCode);
    expect(await engine.ops.groups.revokeInvite(OPEN_GROUP)).to.equal(`NEW${code}`);
    await expectCode(engine.ops.groups.getInviteCode(RESTRICTED_GROUP), 'PERMISSION_DENIED');
    await engine.ops.groups.leave(OPEN_GROUP);
    expect(called('leave')).to.deep.equal([[OPEN_GROUP]]);
    await expectCode(engine.ops.groups.leave(OPEN_GROUP), 'PERMISSION_DENIED');
    expect(await engine.ops.groups.joinByInvite(`NEW${code}`)).to.equal(OPEN_GROUP);
    const bad = await expectCode(engine.ops.groups.joinByInvite('nope'), 'GROUP_INVITE_INVALID');
    expect(bad.details).to.deep.equal({ code: 'nope' });
  });

  it('group notifications become group.join / group.leave / group.update', async () => {
    const seen: Array<[EngineEventName, unknown]> = [];
    for (const event of ['group.join', 'group.leave', 'group.update'] as const) {
      engine.on(event, (data: unknown) => seen.push([event, data]));
    }
    const t = 1_700_000_100;
    groups.notify(client, 'add', OPEN_GROUP, OTHER, [PRIVATE]);
    groups.notify(client, 'invite', OPEN_GROUP, PRIVATE, [PRIVATE]);
    groups.notify(client, 'remove', OPEN_GROUP, OTHER, [PRIVATE]);
    groups.notify(client, 'leave', OPEN_GROUP, CONTACT, [CONTACT]);
    groups.notify(client, 'promote', OPEN_GROUP, OTHER, [CONTACT]);
    groups.notify(client, 'picture', OPEN_GROUP, OTHER);
    groups.notify(client, 'create', '120363000000000077@g.us', OTHER);
    expect(seen).to.deep.equal([
      [
        'group.join',
        { groupId: OPEN_GROUP, participants: [PRIVATE], how: 'added', by: OTHER, timestamp: t },
      ],
      [
        'group.join',
        { groupId: OPEN_GROUP, participants: [PRIVATE], how: 'invite_link', timestamp: t },
      ],
      [
        'group.leave',
        { groupId: OPEN_GROUP, participants: [PRIVATE], how: 'removed', by: OTHER, timestamp: t },
      ],
      [
        'group.leave',
        { groupId: OPEN_GROUP, participants: [CONTACT], how: 'left', by: CONTACT, timestamp: t },
      ],
      [
        'group.update',
        {
          groupId: OPEN_GROUP,
          change: 'promote',
          participants: [CONTACT],
          by: OTHER,
          timestamp: t,
        },
      ],
      ['group.update', { groupId: OPEN_GROUP, change: 'picture', by: OTHER, timestamp: t }],
      [
        'group.join',
        {
          groupId: '120363000000000077@g.us',
          participants: [BOT],
          how: 'added',
          by: OTHER,
          timestamp: t,
        },
      ],
    ]);
    seen.length = 0;
    // subject, description and settings are read back from the group itself
    groups.extraOf(OPEN_GROUP).subject = 'Fresh';
    network.groups.get(OPEN_GROUP)!.announce = true;
    const subject = nextEvent(engine, 'group.update');
    groups.notify(client, 'subject', OPEN_GROUP, OTHER, [], 'Fresh');
    expect((await subject)[0]).to.deep.equal({
      groupId: OPEN_GROUP,
      change: 'subject',
      subject: 'Fresh',
      by: OTHER,
      timestamp: t,
    });
    const announce = nextEvent(engine, 'group.update');
    groups.notify(client, 'announce', OPEN_GROUP, OTHER, [], 'on');
    expect((await announce)[0]).to.deep.include({
      change: 'settings',
      settings: { messagesAdminsOnly: true },
    });
  });

  it('relies only on names the installed whatsapp-web.js has', async () => {
    const require = createRequire(import.meta.url);
    const root = path.dirname(require.resolve('whatsapp-web.js/package.json'));
    const source = (file: string) => readFile(path.join(root, 'src', file), 'utf8');
    const client = await source('Client.js');
    expect(client).to.contain('async createGroup(title, participants = [], options = {})');
    expect(client).to.contain('async acceptInvite(inviteCode)');
    expect(client).to.contain('return res.gid._serialized;');
    expect(client).to.match(/\['add', 'invite', 'linked_group_join'\]\.includes\(\s*msg\.subtype/);
    const chat = await source('structures/GroupChat.js');
    for (const method of [
      'addParticipants(participantIds, options = {})',
      'removeParticipants(participantIds)',
      'promoteParticipants(participantIds)',
      'demoteParticipants(participantIds)',
      'setSubject(subject)',
      'setDescription(description)',
      'setMessagesAdminsOnly(adminsOnly = true)',
      'setInfoAdminsOnly(adminsOnly = true)',
      'getInviteCode()',
      'revokeInvite()',
      'leave()',
    ]) {
      expect(chat, method).to.contain(`async ${method}`);
    }
    for (const code of [200, 403, 404, 408, 409, 417, 419])
      expect(chat).to.match(new RegExp(`\\b${code}: ['"]`));
    expect(chat).to.contain('You have no admin rights to add a participant to a group');
    for (const field of ['owner', 'creation', 'desc', 'announce', 'restrict']) {
      expect(chat).to.contain(`groupMetadata.${field}`);
    }
    const constants = await source('util/Constants.js');
    for (const event of ['group_join', 'group_leave', 'group_admin_changed', 'group_update']) {
      expect(constants).to.contain(`'${event}'`);
    }
    const notification = await source('structures/GroupNotification.js');
    for (const field of [
      'this.type = data.subtype',
      'this.chatId',
      'this.author',
      'this.recipientIds',
    ]) {
      expect(notification).to.contain(field);
    }
  });
});
