/* global window */
/**
 * WhatsApp Web double, part 2: wids (`WAWebWidFactory`) and message keys (`WAWebMsgKey`).
 * A wid keeps `_serialized` in every build; a message key keeps its serialized form under the
 * build's `keySerializedField` (`_serialized`, or `$1` from WhatsApp Web 2.3000.1042401057 on:
 * whatsapp-web.js #201830, wppconnect wa-js #3484), and `toString()` returns it either way.
 */
(function () {
  const D = window.__double;
  const SERVERS = { 's.whatsapp.net': 'c.us' };

  class Wid {
    constructor(serialized) {
      const text = String(serialized);
      const at = text.indexOf('@');
      if (at <= 0) throw new Error(`invalid wid: ${text}`);
      const server = SERVERS[text.slice(at + 1)] || text.slice(at + 1);
      const user = text.slice(0, at).split(':')[0];
      if (!/^[\w.-]+$/.test(user)) throw new Error(`invalid wid: ${text}`);
      this.server = server;
      this.user = user;
      this._serialized = `${user}@${server}`;
    }
    isLid() {
      return this.server === 'lid';
    }
    isGroup() {
      return this.server === 'g.us';
    }
    isUser() {
      return this.server === 'c.us' || this.server === 'lid';
    }
    isStatus() {
      return this._serialized === 'status@broadcast';
    }
    isBroadcast() {
      return this.server === 'broadcast';
    }
    isNewsletter() {
      return this.server === 'newsletter';
    }
    equals(other) {
      return Boolean(other) && String(other) === this._serialized;
    }
    toString() {
      return this._serialized;
    }
    toJid() {
      return this.server === 'c.us' ? `${this.user}@s.whatsapp.net` : this._serialized;
    }
  }
  D.Wid = Wid;

  const widLike = (value) =>
    value instanceof Wid
      ? value
      : new Wid(typeof value === 'object' && value ? value._serialized : value);
  D.wid = widLike;

  D.define('WAWebWidFactory', {
    createWid: (id) => widLike(id),
    createWidFromWidLike: (id) => widLike(id),
    createUserWid: (user, server = 'c.us') => new Wid(`${user}@${server}`),
    asUserWidOrThrow: (id) => {
      const wid = widLike(id);
      if (!wid.isUser()) throw new Error(`asUserWidOrThrow: not a user wid ${wid}`);
      return wid;
    },
    isWidlike: (value) => {
      try {
        widLike(value);
        return true;
      } catch {
        return false;
      }
    },
  });
  D.define('WAWebWidToJid', {
    widToUserJid: (wid) => widLike(wid).toJid(),
    widToGroupJid: (wid) => widLike(wid).toJid(),
    widToChatJid: (wid) => widLike(wid).toJid(),
  });
  D.define('WAWebJidToWid', {
    userJidToUserWid: (jid) => widLike(jid),
    groupJidToWid: (jid) => widLike(jid),
    chatJidToWid: (jid) => widLike(jid),
  });

  const FIELD = D.build.keySerializedField;
  /** `new MsgKey({ from, to, id, participant, selfDir })` or `new MsgKey({ fromMe, remote, id })`. */
  function MsgKey(parts) {
    if (!parts) throw new Error('MsgKey error: obj is null/undefined');
    const fromMe = 'fromMe' in parts ? Boolean(parts.fromMe) : parts.selfDir === 'out';
    const remote = widLike('remote' in parts ? parts.remote : fromMe ? parts.to : parts.from);
    this.fromMe = fromMe;
    this.remote = remote;
    this.id = parts.id;
    if (parts.participant) this.participant = widLike(parts.participant);
    const pieces = [String(fromMe), remote._serialized, parts.id];
    if (this.participant) pieces.push(this.participant._serialized);
    this[FIELD] = pieces.join('_');
  }
  MsgKey.prototype.toString = function () {
    return this[FIELD];
  };
  MsgKey.prototype.equals = function (other) {
    return Boolean(other) && String(other) === this[FIELD];
  };
  MsgKey.newId = async () => D.newMessageId();
  MsgKey.newId_DEPRECATED = () => D.newMessageId();
  MsgKey.fromString = (text) => {
    const [fromMe, remote, id, participant] = String(text).split('_');
    if (!remote || !id) throw new Error(`MsgKey error: invalid serialized key ${text}`);
    return new MsgKey({ fromMe: fromMe === 'true', remote, id, participant });
  };
  D.MsgKey = MsgKey;
  D.define('WAWebMsgKey', MsgKey);
})();
