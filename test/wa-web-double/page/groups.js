/* global window */
/**
 * WhatsApp Web double, part 8: groups as whatsapp-web.js 1.34.7 drives them: create
 * (`WAWebGroupCreateJob`), add through the participants RPC (`WASmaxGroupsAddParticipantsRPC`,
 * per-participant codes), remove / promote / demote (`WAWebModifyParticipantsGroupAction`),
 * subject and description (`WAWebGroupModifyInfoJob`), settings (`WAWebSetPropertyGroupAction`),
 * invite codes (`WAWebMexFetchGroupInviteCodeJob`, `WAWebGroupQueryJob.resetGroupInviteCode`,
 * `WAWebGroupInviteJob`), leaving (`WAWebExitGroupAction`). Group notifications (gp2 messages)
 * are not generated.
 */
(function () {
  const D = window.__double;
  const { Chat: Chats, GroupMetadata: Groups } = D.modules.WAWebCollections;
  const me = () => D.wid(D.me.pn);
  const participantsOf = (wid) => Groups.get(wid)?.participants;
  const isMe = (wid) => [D.me?.pn, D.me?.lid].includes(String(wid));
  const serverError = (status, message) =>
    Object.assign(new Error(message), { name: 'ServerStatusCodeError', statusCode: status });

  D.Chat.prototype.iAmAdmin = function () {
    return Boolean(
      this.groupMetadata?.participants
        .getModelsArray()
        .some((p) => isMe(p.id) && (p.isAdmin || p.isSuperAdmin)),
    );
  };

  const inviteCodes = new Map();
  const newCode = () => Math.random().toString(36).slice(2, 12).toUpperCase();
  const codeOf = (id) => {
    if (!inviteCodes.has(String(id))) inviteCodes.set(String(id), newCode());
    return inviteCodes.get(String(id));
  };

  let created = 0;
  D.define('WAWebGroupCreateJob', {
    createGroup: async ({ title, announce, restrict }, participants) => {
      const id = `1203630000${String(Date.now()).slice(-6)}${String(++created).padStart(3, '0')}@g.us`;
      const metadata = D.addGroupMetadata({
        id,
        subject: title,
        owner: D.me.pn,
        announce,
        restrict,
        participants: [
          { id: D.me.pn, isAdmin: true, isSuperAdmin: true },
          ...participants.map((p) => ({ id: String(p.phoneNumber) })),
        ],
      });
      Chats.add({ id: metadata.id, groupMetadata: metadata });
      return {
        wid: metadata.id,
        subject: title,
        participants: [
          { wid: me(), type: 'superadmin' },
          ...participants.map((p) => ({ wid: D.wid(p.phoneNumber) })),
        ],
      };
    },
  });

  const addResult = (error) => ({
    name: 'AddParticipantsResponseSuccess',
    value: {
      addParticipant: [
        {
          addParticipantsParticipantAddedOrNonRegisteredWaUserParticipantErrorLidResponseMixinGroup:
            {
              value: {
                addParticipantsParticipantMixins: {
                  name: error ? 'ParticipantNotAdded' : 'ParticipantAdded',
                  value: error ? { error: String(error) } : {},
                },
              },
            },
        },
      ],
    },
  });
  D.define('WASmaxGroupsAddParticipantsRPC', {
    sendAddParticipantsRPC: async ({ participantArgs, iqTo }) => {
      const participants = participantsOf(iqTo);
      if (!participants) throw serverError(404, 'no such group');
      const wid = D.wid(participantArgs[0].participantJid);
      if (!D.person(wid)) return addResult(404);
      const member = participants
        .getModelsArray()
        .some((p) => String(p.id) === String(wid) || String(p.id) === String(D.lidOf(wid)));
      if (member) return addResult(409);
      participants.add({ id: wid, isAdmin: false, isSuperAdmin: false });
      return addResult(null);
    },
  });

  const modify = (update) => async (chat, participants) => {
    for (const participant of participants) update(chat.groupMetadata.participants, participant);
  };
  D.define('WAWebModifyParticipantsGroupAction', {
    removeParticipants: modify((all, p) => all.remove(p)),
    promoteParticipants: modify((_all, p) => p.set('isAdmin', true)),
    demoteParticipants: modify((_all, p) => p.set('isAdmin', false)),
  });
  D.define('WAWebGroupQueryJob', {
    queryAndUpdateGroupMetadataById: async () => {},
    resetGroupInviteCode: async (wid) => {
      inviteCodes.set(String(wid), newCode());
      return { code: codeOf(wid) };
    },
  });
  D.define('WAWebGroupModifyInfoJob', {
    setGroupSubject: async (wid, subject) => Groups.get(wid).set('subject', subject),
    setGroupDescription: async (wid, desc, newId) => Groups.get(wid).set({ desc, descId: newId }),
  });
  const PROPERTIES = { announcement: 'announce', restrict: 'restrict' };
  D.define('WAWebSetPropertyGroupAction', {
    setGroupProperty: async (chat, property, value) => {
      if (!chat.iAmAdmin()) throw serverError(403, 'not an admin');
      chat.groupMetadata.set(PROPERTIES[property] ?? property, Boolean(value));
    },
  });
  D.define('WAWebMexFetchGroupInviteCodeJob', {
    fetchMexGroupInviteCode: async (groupId) => {
      const chat = Chats.get(groupId);
      if (!chat?.iAmAdmin()) throw serverError(401, 'not authorized');
      return { code: codeOf(groupId) };
    },
  });
  D.define('WAWebGroupInviteJob', {
    joinGroupViaInvite: async (code) => {
      const entry = [...inviteCodes].find(([, c]) => c === code);
      if (!entry) throw serverError(404, 'invite code not found');
      const participants = participantsOf(entry[0]);
      if (!participants.get(D.me.pn)) participants.add({ id: me(), isAdmin: false });
      return { gid: D.wid(entry[0]) };
    },
  });
  D.define('WAWebExitGroupAction', {
    sendExitGroup: async (chat) => {
      chat.groupMetadata.participants.remove(D.me.pn);
    },
  });
  /** Invite code of a group the bot is not in (the phone side shares a link). */
  D.inviteCodeOf = (groupId) => codeOf(groupId);
})();
