/* global window */
/**
 * WhatsApp Web double, part 7: message actions and what the phone side reacts with: reactions
 * (`WAWebSendReactionMsgAction`, and the reaction table whose `bulkUpsert` whatsapp-web.js wraps),
 * edits (`WAWebSendMessageEditAction`, `WAWebMsgActionCapability`), revokes and deletes
 * (`Cmd.sendRevokeMsgs` / `sendDeleteMsgs`), poll votes (the poll-vote table), contact cards
 * (`WAWebVcardParsingUtils`, `WAWebFrontendVcardUtils`), and calls offered by the phone side.
 */
(function () {
  const D = window.__double;
  const { Msg: Msgs } = D.modules.WAWebCollections;
  const reactions = D.modules.WAWebAddonReactionTableMode.reactionTableMode;
  const votes = D.modules.WAWebAddonPollVoteTableMode.pollVoteTableMode;
  D.reactionsSent = [];

  const EDIT_WINDOW_S = 15 * 60;
  const isAdminOf = (chat) =>
    Boolean(chat?.groupMetadata) &&
    chat.groupMetadata.participants
      .getModelsArray()
      .some((p) => [D.me?.pn, D.me?.lid].includes(String(p.id)) && (p.isAdmin || p.isSuperAdmin));
  D.define('WAWebMsgActionCapability', {
    canEditText: (msg) => msg.id.fromMe && msg.type === 'chat' && D.now() - msg.t < EDIT_WINDOW_S,
    canEditCaption: (msg) =>
      msg.id.fromMe && Boolean(msg.directPath) && D.now() - msg.t < EDIT_WINDOW_S,
    canSenderRevokeMsg: (msg) => msg.id.fromMe,
    canAdminRevokeMsg: (msg) => isAdminOf(D.chatFor(msg.id.remote)),
  });
  D.define('WAWebSendMessageEditAction', {
    sendMessageEdit: async (msg, body) => {
      msg.set({
        body,
        latestEditMsgKey: new D.MsgKey({
          fromMe: true,
          remote: msg.id.remote,
          id: D.newMessageId(),
        }),
        latestEditSenderTimestampMs: Date.now(),
      });
    },
  });
  D.Cmd.sendRevokeMsgs = async (_chat, { list }) => {
    for (const msg of list) msg.set({ type: 'revoked', body: undefined });
  };
  D.Cmd.sendDeleteMsgs = async (chat, { list }) => {
    for (const msg of list) {
      chat.msgs.remove(msg);
      Msgs.remove(msg);
    }
  };

  /** The key of a reaction or vote by `sender` to `parent` (in a group: the sender's participant). */
  const addonKey = (parent, sender, fromMe) =>
    new D.MsgKey({
      fromMe,
      remote: parent.id.remote,
      id: D.newMessageId(),
      participant: parent.id.remote.isGroup() && !fromMe ? sender : undefined,
    });
  /** A reaction row as WhatsApp Web's reaction table holds it. */
  const reactionRow = (parent, emoji, sender, fromMe) => ({
    id: addonKey(parent, sender, fromMe),
    reactionParentKey: parent.id,
    reactionText: emoji,
    reactionTimestamp: Date.now(),
    from: sender,
    read: false,
    ack: 1,
    orphan: 0,
  });
  D.define('WAWebSendReactionMsgAction', {
    sendReactionToMsg: async (msg, emoji) => {
      D.reactionsSent.push({ to: String(msg.id), emoji });
      await reactions.bulkUpsert([reactionRow(msg, emoji, D.wid(D.me.pn), true)]);
    },
  });
  /** Someone reacts to message `id`. */
  D.react = async (id, emoji, from) => {
    const parent = Msgs.get(id);
    if (!parent) throw new Error(`WA double phone: no message ${id}`);
    await reactions.bulkUpsert([reactionRow(parent, emoji, D.wid(from), false)]);
  };
  /** Someone votes on poll `id` for the options with these local ids. */
  D.vote = async (id, localIds, from) => {
    const parent = Msgs.get(id);
    if (!parent) throw new Error(`WA double phone: no poll ${id}`);
    await votes.bulkUpsert([
      {
        id: addonKey(parent, D.wid(from), false),
        pollUpdateParentKey: parent.id,
        selectedOptionLocalIds: localIds,
        senderTimestampMs: Date.now(),
        t: Date.now(),
        from: D.wid(from),
      },
    ]);
  };

  // ---------------------------------------------------------------- contact cards
  const field = (vcard, name) => new RegExp(`^${name}[^:]*:(.*)$`, 'mi').exec(vcard)?.[1];
  D.define('WAWebVcardParsingUtils', {
    parseVcard: (text) => {
      if (!/^BEGIN:VCARD/i.test(text)) throw new Error('not a vCard');
      return { fn: field(text, 'FN'), tel: field(text, 'TEL') };
    },
  });
  D.define('WAWebVcardGetNameFromParsed', { vcardGetNameFromParsed: (parsed) => parsed.fn });
  D.define('WAWebFrontendVcardUtils', {
    vcardFromContactModel: (contact) => {
      const name = contact.formattedName;
      const digits = contact.id.user;
      return {
        displayName: name,
        vcard: `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL;type=CELL;waid=${digits}:+${digits}\nEND:VCARD`,
      };
    },
  });
})();
