/* global window, File, setTimeout */
/**
 * WhatsApp Web double, part 5: sending (`WAWebSendMsgChatAction.addAndSendMsgToChat`) with acks
 * progressing (1 server, 2 delivered; 3 read when the phone side reads), seen, forwarding,
 * quoting, and media: `WAWebMediaOpaqueData` → `WAWebPrepRawMedia` → `WAWebMediaStorage` →
 * `WAWebMediaMmsV4Upload` on the way out, `WAWebDownloadManager` on the way in. Uploaded and
 * received media bytes live in `D.media` (directPath → Blob) for the session of the page.
 */
(function () {
  const D = window.__double;
  const { build } = D;
  const { Msg: Msgs } = D.modules.WAWebCollections;
  D.media = new Map();
  /** What the bot sent, in order (the phone side reads it). */
  D.sent = [];

  const setAck = (msg, ack) => {
    if (msg.ack < ack) msg.set('ack', ack);
  };
  D.setAck = setAck;

  /** Adds a message model to its chat and to Msg (firing `add`), as WhatsApp Web does. */
  D.addMessage = (chat, msg) => {
    chat.msgs.add(msg);
    chat.t = msg.t;
    chat.lastReceivedKey = msg.id;
    Msgs.add(msg);
    return msg;
  };

  /** Posts a message model the page built: in its chat and Msg, sent, its acks progressing. */
  const post = (chat, msg) => {
    D.addMessage(chat, msg);
    D.sent.push(msg);
    const recipientKnown = chat.id.isGroup() || Boolean(D.person(chat.id));
    setTimeout(() => setAck(msg, 1), build.ackDelayMs);
    if (recipientKnown && !D.reachoutHeld(chat)) {
      setTimeout(() => setAck(msg, 2), 2 * build.ackDelayMs);
    }
    return msg;
  };
  D.post = post;
  const send = (chat, message) => post(chat, new D.Msg({ ...message, isNewMsg: true }));
  /**
   * A reachout lock (the phone side's `lockReachout`): the server takes the bot's messages to
   * people who never wrote to it (one tick) and never delivers them, with no error; replies in a
   * chat where the person wrote still arrive. This is the quiet restriction users describe (WAHA
   * #1536, Baileys #2441: messages to new contacts stuck at one grey tick after 30–40 cold
   * messages); whatsapp-web.js 1.34.7 has no event for it, so acks are all it shows.
   */
  D.reachoutLocked = false;
  D.reachoutHeld = (chat) =>
    D.reachoutLocked && !chat.id.isGroup() && !chat.msgs.getModelsArray().some((m) => !m.id.fromMe);
  /** While the phone side holds sends (`holdSends`), a send waits before it is even added. */
  D.held = null;
  D.define('WAWebSendMsgChatAction', {
    addAndSendMsgToChat: (chat, message) => {
      if (D.held) {
        D.held.count += 1;
        const sent = D.held.gate.then(() => send(chat, message));
        return [sent.then((msg) => [msg]), sent.then(() => ({ messageSendResult: 'OK' }))];
      }
      try {
        const msg = send(chat, message);
        return [Promise.resolve([msg]), Promise.resolve({ messageSendResult: 'OK' })];
      } catch (error) {
        return [Promise.reject(error), Promise.reject(error)];
      }
    },
  });
  D.define('WAWebGetEphemeralFieldsMsgActionsUtils', { getEphemeralFields: () => ({}) });
  D.define('WAWebMsgReply', { canReplyMsg: () => true });
  D.define('WAWebQuotedMsgModelUtils', {
    getQuotedMsgObj: (msg) => {
      const remote = msg.quotedRemoteJid || msg.id.remote;
      const participant = D.wid(msg.quotedParticipant);
      const fromMe = Boolean(D.me) && participant._serialized === D.me.pn;
      const key = new D.MsgKey({ fromMe, remote, id: msg.quotedStanzaID });
      return Msgs.get(key) || new D.Msg({ id: key, ...msg.quotedMsg });
    },
  });
  D.define('WAWebUpdateUnreadChatAction', {
    sendSeen: async ({ chat }) => {
      chat.set('unreadCount', 0);
    },
  });

  const URL_RE = /\bhttps?:\/\/[^\s]+/gi;
  D.define('WALinkify', {
    findLink: (text) => {
      const match = typeof text === 'string' ? text.match(URL_RE) : null;
      return match ? { href: match[0], url: match[0] } : null;
    },
    findLinks: (text) =>
      (typeof text === 'string' ? text.match(URL_RE) || [] : []).map((href) => ({ href })),
  });
  // No network: a link preview is never found (WhatsApp Web fetches it from its servers).
  D.define('WAWebLinkPreviewChatAction', { getLinkPreview: async () => undefined });

  D.define('WAWebChatForwardMessage', {
    forwardMessages: async ({ chat, msgs }) => {
      for (const original of msgs) {
        const {
          id: _id,
          ack: _ack,
          from: _f,
          to: _t,
          author: _a,
          ...content
        } = original.serialize();
        const key = new D.MsgKey({
          from: D.wid(D.me.pn),
          to: chat.id,
          id: D.newMessageId(),
          selfDir: 'out',
        });
        send(chat, {
          ...content,
          id: key,
          from: D.wid(D.me.pn),
          to: chat.id,
          t: D.now(),
          self: 'out',
          isForwarded: true,
          forwardingScore: (original.forwardingScore || 0) + 1,
        });
      }
      return [];
    },
  });

  // ---------------------------------------------------------------- media out
  class OpaqueData {
    static async createFromData(blob, mimetype) {
      return new OpaqueData(blob, mimetype);
    }
    constructor(blob, mimetype) {
      this.blob = blob;
      this.type = mimetype;
    }
    url() {
      return `blob:double/${this.blob.size}`;
    }
    autorelease() {}
    formData() {
      return this.blob;
    }
  }
  D.define('WAWebMediaOpaqueData', OpaqueData);

  const sha256 = async (blob) => {
    const digest = await window.crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
    return window.btoa(String.fromCharCode(...new Uint8Array(digest)));
  };
  const typeOf = (mimetype, params) => {
    if (params.asDocument) return 'document';
    if (params.asSticker || mimetype === 'image/webp') return 'sticker';
    if (mimetype.startsWith('image/')) return 'image';
    if (mimetype.startsWith('video/')) return 'video';
    if (mimetype.startsWith('audio/')) return params.isPtt ? 'ptt' : 'audio';
    return 'document';
  };
  class MediaData extends D.Model {
    toJSON() {
      const { mediaBlob: _blob, ...plain } = this;
      return plain;
    }
  }
  D.define('WAWebPrepRawMedia', {
    prepRawMedia: (opaque, params) => ({
      waitForPrep: async () => {
        const blob = opaque.blob;
        const filehash = await sha256(blob);
        prepared.set(filehash, blob);
        const data = new MediaData({
          type: typeOf(opaque.type, params),
          mimetype: opaque.type,
          filename: blob instanceof File ? blob.name : undefined,
          size: blob.size,
          isGif: Boolean(params.asGif),
          filehash,
          mediaBlob: opaque,
        });
        // 2026-09-17 builds: the prep result is a model with an id of its own (#201921, #201923).
        if (build.mediaPrepClobbersId) data.__x_id = undefined;
        return data;
      },
    }),
  });
  const prepared = new Map();
  const mediaObjects = new Map();
  D.define('WAWebMediaStorage', {
    getOrCreateMediaObject: (filehash) => {
      if (!mediaObjects.has(filehash)) {
        const object = {
          filehash,
          contentInfo: {},
          consolidate(json) {
            Object.assign(this, json);
          },
        };
        mediaObjects.set(filehash, object);
      }
      return mediaObjects.get(filehash);
    },
  });
  D.define('WAWebMmsMediaTypes', {
    msgToMediaType: ({ type }) => type,
    castToV4: (type) => type,
  });
  D.define('WAWebMediaDataUtils', { shouldUseMediaCache: () => false });
  /** Files the page holds in memory (filehash → Blob): downloaded or shown before, no fetch. */
  const blobCache = new Map();
  D.define('WAWebMediaInMemoryBlobCache', {
    InMemoryMediaBlobCache: {
      put: (filehash, blob) => blobCache.set(filehash, blob),
      get: (filehash) => blobCache.get(filehash),
      has: (filehash) => blobCache.has(filehash),
    },
  });
  let uploads = 0;
  const upload = (blob, filehash) => {
    const directPath = `/v/t62.double/${++uploads}-${Date.now()}.enc`;
    D.media.set(directPath, blob);
    return {
      mmsUrl: `https://mmg.whatsapp.net${directPath}`,
      deprecatedMms3Url: `https://mmg.whatsapp.net${directPath}`,
      directPath,
      mediaKey: window.btoa(`key-${uploads}`),
      mediaKeyTimestamp: D.now(),
      encFilehash: filehash,
      uploadHash: filehash,
      url: `https://mmg.whatsapp.net${directPath}`,
    };
  };
  const uploadMedia = async ({ mediaObject }) => {
    const blob = prepared.get(mediaObject.filehash);
    if (!blob) throw new Error('upload failed: no media blob');
    return { mediaEntry: upload(blob, mediaObject.filehash) };
  };
  D.define('WAWebMediaMmsV4Upload', { uploadMedia, uploadUnencryptedMedia: uploadMedia });
  D.define('WAWebUploadManager', {
    encryptAndUpload: async ({ blob }) => upload(blob, await sha256(blob)),
  });
  D.define('WAWebStartMediaUploadQpl', { startMediaUploadQpl: () => ({}) });

  // ---------------------------------------------------------------- media in
  const MediaNotFound = D.customError('MediaNotFound', { status: 404 });
  /** Every fetch from the media server (cache hits are not): `{ directPath, mimetype }`. */
  D.downloads = [];
  D.define('WAWebDownloadManager', {
    downloadManager: {
      downloadAndMaybeDecrypt: async ({ directPath, filehash, mimetype, type }) => {
        const cached = blobCache.get(filehash);
        if (cached) return cached.arrayBuffer();
        const blob = D.media.get(directPath);
        D.downloads.push({ directPath, mimetype });
        if (!blob) throw new MediaNotFound(`no media at ${directPath}`);
        return D.afterDownload({ blob, mimetype, type });
      },
    },
  });
  /** What a fetched file goes through before it is handed out (changes.js adds the MIME check). */
  D.afterDownload = ({ blob }) => blob.arrayBuffer();
})();
