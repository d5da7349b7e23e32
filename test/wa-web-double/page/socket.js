/* global window, indexedDB, setTimeout, setInterval, clearInterval */
/**
 * WhatsApp Web double, part 3: the socket and app state machine, the connection (QR `ref`
 * rotating on a timer, pairing by phone code), the linked state kept in the profile's IndexedDB
 * (database `wawc`, store `user`), and the modules whatsapp-web.js's ExposeAuthStore reads.
 *
 * States (WAWebSocketModel.Socket.state): OPENING → UNPAIRED (no linked state: QR shown) or
 * CONNECTED (linked); a scan goes OPENING → CONNECTED. `hasSynced` flips to true `syncDelayMs`
 * after CONNECTED whether or not anyone listens: the real page never waits for whatsapp-web.js's
 * `change:hasSynced` listener (attached at the end of inject(), Client.js:406), so a fast restore
 * can sync before it (the ready race, compat/ready-race.ts). A resync (`D.resync()`, the phone's
 * `resync`) flips it to false and back, as WhatsApp Web does after a reconnect.
 */
(function () {
  const D = window.__double;
  const { build } = D;

  // ---------------------------------------------------------------- persistence (IndexedDB)
  const DB = 'wawc';
  const open = () =>
    new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore('user');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  const tx = async (mode, run) => {
    const db = await open();
    return new Promise((resolve, reject) => {
      const t = db.transaction('user', mode);
      const result = run(t.objectStore('user'));
      t.oncomplete = () => {
        db.close();
        resolve(result.result);
      };
      t.onerror = () => reject(t.error);
    });
  };
  D.storage = {
    readLinked: () => tx('readonly', (store) => store.get('me')),
    writeLinked: (me) => tx('readwrite', (store) => store.put(me, 'me')),
    clear: () => tx('readwrite', (store) => store.clear()),
  };

  // ---------------------------------------------------------------- socket and connection
  const Socket = new D.Model({ state: 'OPENING', hasSynced: false });
  D.Socket = Socket;
  /** The sync after CONNECTED: on its own clock, heard or not. */
  const sync = () => {
    setTimeout(() => {
      if (D.me && Socket.state === 'CONNECTED') Socket.set('hasSynced', true);
    }, build.syncDelayMs);
  };
  /** A resync (after a reconnect): `hasSynced` goes false, then true again; resolves after. */
  D.resync = async () => {
    Socket.set('hasSynced', false);
    await D.sleep(build.syncDelayMs);
    Socket.set('hasSynced', true);
  };
  Socket.logout = async () => {
    await D.unlink();
    D.Cmd.trigger('logout');
  };
  Socket.takeover = () => Socket.set('state', 'CONNECTED');

  const Conn = new D.Model({
    ref: null,
    wid: undefined,
    pushname: undefined,
    platform: 'web',
    battery: 100,
    plugged: true,
  });
  Conn.serialize = () => ({
    pushname: Conn.pushname,
    wid: Conn.wid,
    platform: Conn.platform,
    phone: { wa_version: build.version },
  });
  D.Conn = Conn;

  const Cmd = new D.Emitter();
  D.Cmd = Cmd;
  let refTimer = null;
  let refSeq = 0;
  const newRef = () =>
    `2@double${build.version}#${++refSeq}#${Math.random().toString(36).slice(2, 14)}`;
  /**
   * A new ref every `qrRefreshMs`; after `qrIdleAfterRefs` of them (when set) the QR stops:
   * `UNPAIRED_IDLE` ("click to reload the QR code"), no ref scans, until a refresh.
   */
  let refsShown = 0;
  const showRef = () => {
    if (build.qrIdleAfterRefs !== null && refsShown >= build.qrIdleAfterRefs) {
      clearInterval(refTimer);
      Socket.set('state', 'UNPAIRED_IDLE');
      return;
    }
    refsShown += 1;
    Conn.set('ref', newRef());
  };
  const rotateRefs = () => {
    clearInterval(refTimer);
    refsShown = 0;
    if (Socket.state === 'UNPAIRED_IDLE') Socket.set('state', 'UNPAIRED');
    showRef();
    refTimer = setInterval(showRef, build.qrRefreshMs);
  };
  Cmd.refreshQR = () => rotateRefs();

  /** Makes `me` the linked account and connects (a scan, a pairing code or a restore). */
  D.connect = async (me, { persist }) => {
    clearInterval(refTimer);
    D.me = me;
    Conn.set({ wid: D.wid(me.pn), pushname: me.pushname });
    if (persist) await D.storage.writeLinked(me);
    D.world.onLinked?.(me);
    Socket.set('state', 'OPENING');
    await D.sleep(build.connectDelayMs);
    Socket.set('state', 'CONNECTED');
    sync();
  };
  /** Forgets the linked account (logout, unpair, expiry). */
  D.unlink = async () => {
    D.me = undefined;
    await D.storage.clear();
  };

  const boot = async () => {
    const linked = await D.storage.readLinked().catch(() => undefined);
    await D.sleep(build.bootDelayMs);
    if (linked) {
      return D.connect(linked, { persist: false });
    }
    rotateRefs();
    Socket.set('state', 'UNPAIRED');
  };
  D.ready = boot();

  D.define('WAWebSocketModel', { Socket });
  D.define('WAWebConnModel', { Conn });
  D.define('WAWebCmd', { Cmd });
  D.define('WAWebLaunchSocketUtils', { refreshQR: () => rotateRefs() });
  D.define('WAWebOfflineHandler', {
    OfflineMessageHandler: { getOfflineDeliveryProgress: () => 100 },
  });
  D.define('WAWebStreamModel', {
    Stream: { markAvailable: () => {}, markUnavailable: () => {} },
  });
  D.define('WAWebMiscBrowserUtils', { info: () => ({ os: 'Linux', name: 'Chrome' }) });

  // ---------------------------------------------------------------- what a QR code is made of
  const bytes = (seed) => Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i * 7) % 256);
  const encodeB64 = (data) => window.btoa(String.fromCharCode(...new Uint8Array(data)));
  D.define('WABase64', {
    encodeB64,
    decodeB64: (text) => Uint8Array.from(window.atob(text), (c) => c.charCodeAt(0)),
  });
  D.define('WAWebCompanionRegClientUtils', { DEVICE_PLATFORM: 'Chrome' });
  D.define('WAWebAdvSignatureApi', {});
  D.define('WAWebUserPrefsInfoStore', {
    waNoiseInfo: { get: async () => ({ staticKeyPair: { pubKey: bytes(1) } }) },
  });
  D.define('WAWebSignalStoreApi', {
    waSignalStore: {
      getRegistrationInfo: async () => ({ identityKeyPair: { pubKey: bytes(2) } }),
    },
  });
  D.define('WAWebUserPrefsMultiDevice', { getADVSecretKey: () => encodeB64(bytes(3)) });
  D.define('WAWebUserPrefsMeUser', {
    getMaybeMePnUser: () => (D.me ? D.wid(D.me.pn) : undefined),
    getMaybeMeLidUser: () => (D.me?.lid ? D.wid(D.me.lid) : undefined),
    getMeUser: () => D.wid(D.me.pn),
  });

  // ---------------------------------------------------------------- pairing by phone code
  let pairing = null;
  D.define('WAWebAltDeviceLinkingApi', {
    setPairingType: (type) => {
      pairing = { type };
    },
    initializeAltDeviceLinking: async () => {},
    initializeQRLinking: async () => {
      pairing = null;
    },
    startAltLinkingFlow: async (phone) => {
      const code = Array.from({ length: 8 }, () =>
        'ABCDEFGHJKLMNPQRSTVWXYZ0123456789'.charAt(Math.floor(Math.random() * 33)),
      ).join('');
      pairing = { ...pairing, phone: String(phone), code };
      return code;
    },
  });
  D.pairing = () => pairing;
})();
