/* global window */
/**
 * WhatsApp Web double, part 6: what whatsapp-web.js's attachEventListeners (Client.js:1017-1244)
 * hooks into besides the collections: placeholder resend gating, the call collection (its
 * internal Map's `set` is wrapped to see offers), the reaction and poll-vote table modes (their
 * `bulkUpsert` is wrapped to see reactions and votes), and presence / chat state.
 */
(function () {
  const D = window.__double;

  D.define('WAWebSyncGatingUtils', { isPlaceholderMessageResendEnabled: () => false });
  D.resendRequests = [];
  D.define('WAWebNonMessageDataRequestPlaceholderMessageResendUtils', {
    handlePlaceholderMsgsSeen: (msgs) => {
      D.resendRequests.push(...msgs.map(String));
    },
  });

  // ---------------------------------------------------------------- calls
  const calls = new Map();
  const CallCollection = new D.Emitter();
  CallCollection.calls = calls;
  CallCollection.rejected = [];
  D.define('WAWebCallCollection', CallCollection);
  /** An incoming call offer from the phone side. */
  D.offerCall = ({ from, isVideo = false, isGroup = false, id }) => {
    const call = {
      id: id || D.newMessageId().replace('3EB0', 'C0'),
      peerJid: String(D.wid(from)),
      isVideo,
      isGroup,
      canHandleLocally: false,
      outgoing: false,
      webClientShouldHandle: false,
      participants: [],
      offerTime: D.now(),
    };
    calls.set(call.id, call);
    return call.id;
  };
  D.define('WAWap', {
    generateId: () => D.newMessageId(),
    wap: (tag, attrs, content) => ({ tag, attrs, content }),
  });
  D.define('WADeprecatedSendIq', {
    deprecatedCastStanza: async (stanza) => {
      const reject = stanza.tag === 'call' && stanza.content?.find((c) => c.tag === 'reject');
      if (reject) CallCollection.rejected.push(reject.attrs['call-id']);
    },
  });

  // ---------------------------------------------------------------- reactions and votes
  D.define('WAWebAddonReactionTableMode', {
    reactionTableMode: { bulkUpsert: async (rows) => rows },
  });
  D.define('WAWebAddonPollVoteTableMode', {
    pollVoteTableMode: { bulkUpsert: async (rows) => rows },
  });

  // ---------------------------------------------------------------- presence and chat state
  D.presence = [];
  const record = (what) => async (wid) => {
    D.presence.push({ what, chat: wid ? String(wid) : undefined });
  };
  D.define('WAWebChatStateBridge', {
    sendChatStateComposing: record('typing'),
    sendChatStateRecording: record('recording'),
    sendChatStatePaused: record('paused'),
  });
  D.define('WAWebPresenceChatAction', {
    sendPresenceAvailable: record('available'),
    sendPresenceUnavailable: record('unavailable'),
  });
})();
