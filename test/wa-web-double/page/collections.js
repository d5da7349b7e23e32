/* global window */
/**
 * WhatsApp Web double, part 4: the network the phone lives in (`window.__doubleWorld`: people
 * with phone and LID ids, groups), and the collections of `WAWebCollections` (Msg, Chat, Contact,
 * GroupMetadata, Blocklist) with the look-ups whatsapp-web.js makes on them: contacts and their
 * getters, LID↔phone (`WAWebApiContact`, `WAWebLidMigrationUtils`), `WAWebQueryExistsJob`,
 * `WAWebFindChatAction`, and chat pinning (`Cmd.pinChat`).
 */
(function () {
  const D = window.__double;
  const world = (D.world = window.__doubleWorld);
  const people = new Map();
  for (const person of world.users) {
    people.set(person.pn, person);
    if (person.lid) people.set(person.lid, person);
  }
  world.onLinked = (me) => {
    people.set(me.pn, me);
    if (me.lid) people.set(me.lid, me);
    if (!ContactCollection.get(me.pn))
      ContactCollection.add({ id: D.wid(me.pn), pushname: me.pushname });
  };
  /** The person behind a phone or LID wid, or undefined for an unregistered one. */
  D.person = (id) => people.get(String(id));
  D.pnOf = (id) => (D.person(id) ? D.wid(D.person(id).pn) : undefined);
  D.lidOf = (id) => (D.person(id)?.lid ? D.wid(D.person(id).lid) : undefined);

  // ---------------------------------------------------------------- messages
  const DATA_GETTER =
    "Data passed to getter must include an id property (it's how we memoize) but got undefined";
  class Msg extends D.Model {
    constructor(attributes) {
      // A model's internal `__x_` fields win over public ones when both are passed: the
      // 2026-09-17 media prep result carries `__x_id` (whatsapp-web.js PR #201923).
      const { __x_id: internal, ...rest } = attributes;
      const id = '__x_id' in attributes ? internal : attributes.id;
      if (!id) throw new Error(DATA_GETTER); // WAWebMsgGetters.getSender (#201922)
      super({ ack: 0, isNewMsg: false, ...rest, id });
      if (this.directPath && !this.mediaData) {
        this.mediaData = new D.Model({ mediaStage: 'RESOLVED' });
      }
    }
    serialize() {
      const { mediaData: _media, mediaBlob: _blob, ...plain } = this;
      return plain;
    }
    unsafe() {
      return this;
    }
    canReply() {
      return true;
    }
    msgContextInfo() {
      return {
        quotedMsg: { type: this.type, body: this.body, caption: this.caption },
        quotedStanzaID: this.id.id,
        quotedParticipant: this.author || (this.id.fromMe ? D.wid(D.me.pn) : this.from),
        quotedRemoteJid: this.id.remote,
      };
    }
    async downloadMedia() {
      if (this.mediaData && D.media.has(this.directPath)) this.mediaData.mediaStage = 'RESOLVED';
      else if (this.mediaData) this.mediaData.mediaStage = 'ERROR_MISSING';
    }
    avParams() {
      return {};
    }
  }
  D.Msg = Msg;
  const MsgCollection = new D.Collection(Msg);
  MsgCollection.getMessagesById = async (ids) => {
    if (ids.some((id) => id === undefined || id === null)) {
      // What WhatsApp Web's IndexedDB look-up throws for an undefined key (#201830).
      const error = new Error(
        "Failed to execute 'get' on 'IDBObjectStore': No key or key range specified.",
      );
      error.name = 'DataError';
      throw error;
    }
    return { messages: ids.map((id) => MsgCollection.get(id)).filter(Boolean) };
  };

  // ---------------------------------------------------------------- contacts
  class Contact extends D.Model {
    serialize() {
      return { ...this };
    }
    get formattedName() {
      return this.name || this.pushname || this.id.user;
    }
  }
  const ContactCollection = new D.Collection(Contact);
  ContactCollection.find = async (id) => {
    const wid = D.wid(id);
    const found = ContactCollection.get(wid);
    if (found) return found;
    const person = D.person(wid);
    return ContactCollection.add({
      id: wid,
      pushname: person?.pushname,
      name: person?.name,
      phoneNumber: wid.isLid() ? D.pnOf(wid) : undefined,
      isContactBlocked: false,
    });
  };
  for (const person of world.users) {
    ContactCollection.add({ id: D.wid(person.pn), pushname: person.pushname, name: person.name });
  }

  // ---------------------------------------------------------------- groups
  class GroupMetadata extends D.Model {
    serialize() {
      return {
        ...this,
        participants: this.participants.getModelsArray().map((p) => ({ ...p })),
        membershipApprovalRequests: undefined,
      };
    }
  }
  const GroupMetadataCollection = new D.Collection(GroupMetadata);
  GroupMetadataCollection.update = async () => {};
  GroupMetadataCollection.find = async (id) => GroupMetadataCollection.get(id);
  D.addGroupMetadata = (group) => {
    const participants = new D.Collection(D.Model);
    for (const p of group.participants) {
      participants.add({ id: D.wid(p.id), isAdmin: !!p.isAdmin, isSuperAdmin: !!p.isSuperAdmin });
    }
    return GroupMetadataCollection.add({
      id: D.wid(group.id),
      subject: group.subject,
      desc: group.desc ?? '',
      owner: group.owner ? D.wid(group.owner) : undefined,
      creation: group.creation ?? D.now(),
      announce: !!group.announce,
      restrict: !!group.restrict,
      isLidAddressingMode: !!group.lidAddressing,
      participants,
      membershipApprovalRequests: new D.Collection(D.Model),
    });
  };

  for (const group of world.groups || []) D.addGroupMetadata(group);

  // ---------------------------------------------------------------- chats
  class Chat extends D.Model {
    constructor(attributes) {
      super({
        t: undefined,
        unreadCount: 0,
        archive: false,
        pin: 0,
        mute: { expiration: 0 },
        isReadOnly: false,
        ...attributes,
      });
      Object.defineProperty(this, 'msgs', { value: new D.Collection(Msg), enumerable: false });
    }
    /** The contact the chat belongs to (keyed like the chat: by LID for a LID chat). */
    get contact() {
      return ContactCollection.get(this.id) ?? ContactCollection.add({ id: this.id });
    }
    get formattedTitle() {
      if (this.groupMetadata) return this.groupMetadata.subject;
      const contact = ContactCollection.get(this.id);
      return contact?.formattedName || this.id.user;
    }
    serialize() {
      const { groupMetadata: _group, ...plain } = this;
      return { ...plain, msgs: this.msgs.getModelsArray().map((m) => String(m.id)) };
    }
  }
  D.Chat = Chat;
  const ChatCollection = new D.Collection(Chat);
  for (const metadata of GroupMetadataCollection.getModelsArray()) {
    ChatCollection.add({ id: metadata.id, groupMetadata: metadata });
  }
  /** The chat of `id`, made when the network knows `id` (a person or a group of ours). */
  D.chatFor = (id) => {
    const wid = D.wid(id);
    const existing = ChatCollection.get(wid);
    if (existing) return existing;
    const groupMetadata = GroupMetadataCollection.get(wid);
    if (wid.isGroup() && !groupMetadata) return undefined;
    if (wid.isUser() && !D.person(wid)) return undefined;
    return ChatCollection.add({ id: wid, groupMetadata });
  };
  // WhatsApp Web keeps the Chat collection sorted: pinned chats first (the latest pin first), then
  // by last activity. whatsapp-web.js's pinChat relies on it: it refuses a 4th pin when the 3rd
  // model of the collection is pinned (Client.js:2043).
  const pinFirst = (a, b) => (b.pin || 0) - (a.pin || 0) || (b.t || 0) - (a.t || 0);
  ChatCollection.getModelsArray = () => [...ChatCollection.index.values()].sort(pinFirst);
  let lastPin = 0;
  /** `Cmd.pinChat(chat, pin)`: `pin` becomes the pin's time (unique, rising), 0 when unpinned. */
  D.Cmd.pinChat = async (chat, pin) => {
    lastPin = Math.max(D.now(), lastPin + 1);
    chat.set('pin', pin ? lastPin : 0);
  };
  ChatCollection.find = async (id) => {
    const chat = D.chatFor(id);
    if (!chat) throw new Error(`findChat: chat not found ${id}`);
    return chat;
  };

  D.define('WAWebCollections', {
    Msg: MsgCollection,
    Chat: ChatCollection,
    Contact: ContactCollection,
    GroupMetadata: GroupMetadataCollection,
    Blocklist: new D.Collection(D.Model),
  });
  D.define('WAWebFindChatAction', {
    findOrCreateLatestChat: async (wid) => {
      const chat = D.chatFor(wid);
      if (!chat) throw new Error(`findOrCreateLatestChat: no chat for ${wid}`);
      return { chat, created: false };
    },
  });
  // Every message of the page's life is in memory: there is no older history to load.
  D.define('WAWebChatLoadMessages', { loadEarlierMsgs: async () => [] });
  D.define('WAWebChatGetters', {
    getIsNewsletter: (chat) => chat.id.isNewsletter(),
    getIsBroadcast: (chat) => chat.id.isBroadcast(),
    getIsGroup: (chat) => chat.id.isGroup(),
  });

  const isMe = (contact) => Boolean(D.me) && [D.me.pn, D.me.lid].includes(contact.id._serialized);
  D.define('WAWebContactGetters', {
    getIsMe: isMe,
    getIsUser: (c) => c.id.isUser(),
    getIsGroup: (c) => c.id.isGroup(),
    getIsWAContact: (c) => Boolean(D.person(c.id)) || c.id.isGroup(),
    getUserid: (c) => c.id.user,
    getVerifiedName: () => undefined,
    getVerifiedLevel: () => undefined,
    getStatusMute: () => false,
    getName: (c) => c.name,
    getShortName: (c) => c.name?.split(' ')[0],
    getPushname: (c) => c.pushname,
    getIsEnterprise: () => false,
  });
  D.define('WAWebFrontendContactGetters', { getIsMyContact: (c) => Boolean(c.name) });
  D.define('WAWebApiContact', {
    // while `phone.hangQueries()`: nothing is known locally either, every look-up asks the server
    getCurrentLid: (wid) => (D.queriesHang ? undefined : D.lidOf(wid)),
    getPhoneNumber: (wid) => (D.queriesHang ? undefined : D.pnOf(wid)),
    getAlternateUserWid: (wid) => (D.wid(wid).isLid() ? D.pnOf(wid) : D.lidOf(wid)),
  });
  D.define('WAWebLidMigrationUtils', {
    toPn: (wid) => (D.wid(wid).isLid() ? D.pnOf(wid) : D.wid(wid)),
    toLid: (wid) => (D.wid(wid).isLid() ? D.wid(wid) : D.lidOf(wid)),
  });
  D.define('WAWebQueryExistsJob', {
    // `phone.hangQueries()`: the server never answers (a wedged socket): the query hangs
    queryWidExists: (wid) =>
      D.queriesHang
        ? new Promise(() => {})
        : Promise.resolve(D.person(wid) ? { wid: D.wid(wid) } : null),
  });
})();
