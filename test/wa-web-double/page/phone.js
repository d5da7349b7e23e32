/* global window, Blob, setTimeout */
/**
 * WhatsApp Web double, part 9: the phone side. `window.__waDouble` is the control object tests
 * drive through puppeteer (`page.evaluate((args) => window.__waDouble.receive(args), ...)`): it
 * plays the linked phone and the people writing to the bot. Nothing in whatsapp-web.js reads it.
 */
(function () {
  const D = window.__double;
  const { Msg: Msgs } = D.modules.WAWebCollections;

  const chatOrThrow = (id) => {
    const chat = D.chatFor(id);
    if (!chat) throw new Error(`WA double phone: no such chat ${id}`);
    return chat;
  };
  const keyText = (key) => String(key);

  const phone = {
    build: D.build,
    /** Who the bot blocked (serialized ids, as WhatsApp's blocklist keys them). */
    blocked: () => D.blocked(),
    ready: () => D.ready,
    state: () => ({
      socket: D.Socket.state,
      hasSynced: D.Socket.hasSynced,
      linked: D.me ? { ...D.me } : null,
      ref: D.Conn.ref,
    }),

    /** The phone scans a QR string (`ref,keys…`): only the current ref links. */
    async scan(qr, account = D.world.me) {
      const ref = String(qr).split(',')[0];
      if (!ref || ref !== D.Conn.ref || D.Socket.state === 'UNPAIRED_IDLE')
        throw new Error(`WA double phone: QR ref ${ref} is not current`);
      await D.connect(account, { persist: true });
    },

    /** The phone enters the pairing code shown for `account.pn`'s number. */
    async enterCode(code, account = D.world.me) {
      const pairing = D.pairing();
      if (!pairing?.code || pairing.code !== code) throw new Error('WA double phone: wrong code');
      if (`${pairing.phone}@c.us` !== account.pn) throw new Error('WA double phone: other number');
      await D.connect(account, { persist: true });
    },

    /**
     * Someone writes to the bot. `from`: a phone or LID id, or a group with `author`. Text `body`,
     * or `media` (base64) with `mimetype`, `filename`, `caption`, `type`, `cached` (the file is in
     * the page's in-memory blob cache already); `quoted` (a message id),
     * `mentions` (ids); `ciphertextMs`: arrives undecrypted first and decrypts after that long.
     */
    async receive(input) {
      const remote = D.wid(input.from);
      const chat = chatOrThrow(remote);
      const author = input.author ? D.wid(input.author) : undefined;
      const sender = author || remote;
      const me = D.wid(sender.isLid() && D.me.lid ? D.me.lid : D.me.pn);
      const key = new D.MsgKey({
        fromMe: false,
        remote,
        id: input.id || D.newMessageId(),
        participant: author,
      });
      const content = { type: 'chat', body: input.body ?? '' };
      if (input.media) {
        const bytes = Uint8Array.from(window.atob(input.media), (c) => c.charCodeAt(0));
        const blob = new Blob([bytes], { type: input.mimetype });
        const directPath = `/v/t62.double/in-${key.id}.enc`;
        D.media.set(directPath, blob);
        // already in the page's memory (shown or downloaded before): no fetch, no MIME check
        if (input.cached)
          D.modules.WAWebMediaInMemoryBlobCache.InMemoryMediaBlobCache.put(key.id, blob);
        Object.assign(content, {
          type: input.type || mediaType(input.mimetype),
          body: '',
          caption: input.caption,
          mimetype: input.mimetype,
          filename: input.filename,
          size: bytes.length,
          directPath,
          mediaKey: window.btoa(`in-${key.id}`),
          mediaKeyTimestamp: D.now(),
          filehash: key.id,
          encFilehash: key.id,
          mediaData: new D.Model({ mediaStage: 'INIT' }),
        });
      }
      if (input.quoted) {
        const quoted = Msgs.get(input.quoted);
        if (!quoted) throw new Error(`WA double phone: no message ${input.quoted} to quote`);
        Object.assign(content, quoted.msgContextInfo(chat));
      }
      const person = D.person(sender);
      const attributes = {
        ...(input.ciphertextMs ? { type: 'ciphertext', body: undefined } : content),
        id: key,
        from: remote,
        to: me,
        author,
        t: D.now(),
        notifyName: input.notifyName ?? person?.pushname,
        isNewMsg: true,
        mentionedJidList: (input.mentions || []).map((id) => D.wid(id)),
      };
      const msg = D.addMessage(chat, new D.Msg(attributes));
      chat.set('unreadCount', chat.unreadCount + 1);
      if (input.ciphertextMs) setTimeout(() => msg.set(content), input.ciphertextMs);
      return keyText(key);
    },

    /**
     * The account itself writes from the phone (a person answering as the business) in the chat
     * with `to`: the linked device gets it as a new message of its own (`fromMe`), which
     * whatsapp-web.js emits as `message_create` only. Resolves with its id.
     */
    sendFromPhone(input) {
      const remote = D.wid(input.to);
      const chat = chatOrThrow(remote);
      const key = new D.MsgKey({ fromMe: true, remote, id: D.newMessageId() });
      const attributes = {
        type: 'chat',
        body: input.body ?? '',
        id: key,
        from: D.wid(D.me.pn),
        to: remote,
        t: D.now(),
        ack: 1,
        isNewMsg: true,
      };
      D.addMessage(chat, new D.Msg(attributes));
      return keyText(key);
    },

    /**
     * Someone writes while the client is still coming up: delivered the moment whatsapp-web.js
     * attaches its `Msg` `add` listener (attachEventListeners, Client.js:1129), so it crosses to
     * Node before READY and before wakit's READY-time compat fixes. Resolves with its id.
     */
    receiveOnListen(input) {
      return new Promise((resolve, reject) => {
        // the moment whatsapp-web.js subscribes to new messages (Store.Msg.on('add')), before READY
        const own = Object.prototype.hasOwnProperty.call(Msgs, 'on');
        const on = Msgs.on;
        Msgs.on = function (name, ...rest) {
          const result = on.call(this, name, ...rest);
          if (name === 'add') {
            if (own) Msgs.on = on;
            else delete Msgs.on;
            phone.receive(input).then(resolve, reject);
          }
          return result;
        };
      });
    },

    /** Messages the bot sent, oldest first, as plain data. */
    sent: () =>
      D.sent.map((m) => ({
        id: keyText(m.id),
        to: m.to._serialized ?? String(m.to),
        type: m.type,
        body: m.body,
        caption: m.caption,
        mimetype: m.mimetype,
        filename: m.filename,
        ack: m.ack,
        quotedStanzaID: m.quotedStanzaID,
        mentions: (m.mentionedJidList || []).map(String),
        isForwarded: Boolean(m.isForwarded),
      })),

    /** The bytes (base64) of a medium the bot uploaded with message `id`. */
    async sentMedia(id) {
      const msg = Msgs.get(id);
      const blob = msg && D.media.get(msg.directPath);
      if (!blob) return null;
      const buffer = new Uint8Array(await blob.arrayBuffer());
      return window.btoa(String.fromCharCode(...buffer));
    },

    /** Fetches of media from the server: `{ directPath, mimetype }` (cache hits are not). */
    downloads: () => D.downloads.map((d) => ({ ...d })),
    /** WhatsApp Web resyncs (as after a reconnect): `hasSynced` false, then true again. */
    resync: () => D.resync(),

    /** Someone (`from`) reacts to message `id` with `emoji` ('' takes the reaction back). */
    react: (id, emoji, from) => D.react(id, emoji, from),
    /** The invite code of a group (as shared by someone in it). */
    inviteCode: (groupId) => D.inviteCodeOf(groupId),
    /** A group as the network sees it: subject, description, settings, participants. */
    group(groupId) {
      const g = D.modules.WAWebCollections.GroupMetadata.get(groupId);
      if (!g) return null;
      return {
        subject: g.subject,
        desc: g.desc,
        announce: g.announce,
        restrict: g.restrict,
        participants: g.participants.serialize().map((p) => ({
          id: String(p.id),
          isAdmin: Boolean(p.isAdmin || p.isSuperAdmin),
        })),
      };
    },
    /** Reactions the bot sent: `{ to: message id, emoji }`. */
    reactionsSent: () => [...D.reactionsSent],
    /** Someone (`from`) votes on poll `id` for the options with these local ids. */
    vote: (id, localIds, from) => D.vote(id, localIds, from),
    /** Someone calls the bot; returns the call id. */
    call: (from, { isVideo = false } = {}) => D.offerCall({ from, isVideo }),
    /** Call ids the bot rejected. */
    rejectedCalls: () => [...D.modules.WAWebCallCollection.rejected],
    /** Chat states and presence the bot sent (`typing`, `recording`, `paused`, `available`…). */
    presence: () => [...D.presence],

    /** Sends wait (in flight, unanswered) until `releaseSends()`. */
    holdSends() {
      let release;
      const gate = new Promise((resolve) => (release = resolve));
      D.held = { count: 0, gate, release };
    },
    heldSends: () => D.held?.count ?? 0,
    releaseSends() {
      D.held?.release();
      D.held = null;
    },

    /**
     * The server stops answering contact queries (`queryWidExists` never settles), as on a wedged
     * socket: and the page forgets its LID↔phone table, so every contact look-up asks and never answers.
     */
    hangQueries(on = true) {
      D.queriesHang = Boolean(on);
    },

    /** WhatsApp locks (or unlocks) the account's reachout: see `D.reachoutHeld` in send.js. */
    lockReachout(locked = true) {
      D.reachoutLocked = Boolean(locked);
    },

    /** The recipient reads the chat: the bot's messages there reach ack 3. */
    read(chatId) {
      for (const m of D.sent) if (String(m.to) === String(D.wid(chatId))) D.setAck(m, 3);
    },

    /** The phone removes this linked device: WhatsApp Web forgets it and reloads to a QR. */
    async unpair() {
      await D.unlink();
      D.Cmd.trigger('logout_from_bridge');
      setTimeout(() => window.location.reload(), 300);
    },

    /** The server ends the session (expired or revoked): the socket drops to UNPAIRED. */
    async expire() {
      await D.unlink();
      later(() => D.Socket.set('state', 'UNPAIRED'));
    },

    /** Any other socket state (`CONFLICT`, `TIMEOUT`, `TOS_BLOCK`, …). */
    setState(state) {
      later(() => D.Socket.set('state', state));
    },
  };

  /** After the control call has returned: what it sets off may close the page. */
  function later(change) {
    setTimeout(change, 10);
  }

  function mediaType(mimetype) {
    if (mimetype === 'image/webp') return 'sticker';
    const top = String(mimetype).split('/')[0];
    return ['image', 'video', 'audio'].includes(top) ? top : 'document';
  }

  window.__waDouble = phone;
})();
