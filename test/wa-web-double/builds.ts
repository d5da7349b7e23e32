/**
 * The WhatsApp Web builds the double can be started as: a version string (what
 * `window.Debug.VERSION` reports and what whatsapp-web.js's `webVersion` names) plus behaviour
 * switches, each reproducing one public report. The next issue's compat layer is tested on them.
 */
export interface DoubleBuild {
  /** WhatsApp Web version, e.g. `2.3000.1042386815`: the page is served as `<version>.html`. */
  version: string;
  /**
   * Where a message key (`WAWebMsgKey`) keeps its serialized form. `$1` from 2.3000.1042401057
   * on (wids keep `_serialized`): whatsapp-web.js issues #201830, #201833, PRs #201832, #201848;
   * wppconnect wa-js #3484 (4.4.0); wwebjs-api PR #150; OpenWA #757.
   */
  keySerializedField: '_serialized' | '$1';
  /**
   * The media prep result carries an internal `__x_id`; spread into the outgoing message by
   * whatsapp-web.js 1.34.7 (Injected/Utils.js `...mediaOptions`) it clobbers the message id, and
   * building the Msg fails with "Data passed to getter must include an id property (it's how we
   * memoize) but got undefined". WhatsApp Web 2.3000.1047775310 (2026-09-17): whatsapp-web.js
   * issues #201921, #201922, PR #201923.
   */
  mediaPrepClobbersId: boolean;
  /**
   * The rollout flag of the download MIME check is on for this account: a file fetched by
   * `downloadManager.downloadAndMaybeDecrypt` is checked, after the download, against the MIME type
   * the call names (none reads as `application/octet-stream`, which no media type allows) and
   * refused with `InvalidMediaFileType`; a file in the in-memory blob cache is not fetched, so not
   * checked. whatsapp-web.js 1.34.7's `Message.downloadMedia` passes no MIME type
   * (structures/Message.js:559-570): whatsapp-web.js #201908 (the fix for 1.34.7: pass
   * `msg.mimetype`), PR #201914; OpenWA scripts/patch-wwebjs-download-mimetype.js. page/changes.js.
   */
  downloadRequiresMimetype: boolean;
  /**
   * A warm profile (a linked account restored from the profile) syncs at once: `hasSynced` is
   * true as the socket reaches CONNECTED, before whatsapp-web.js attaches its `change:hasSynced`
   * listener at the end of `inject()` (Client.js:400-410), so `authenticated` and `ready` never
   * come. No public report isolates it (it hides among the "ready never fires" reports); it is
   * read from whatsapp-web.js 1.34.7's own code, as the ready-race fix is. page/changes.js.
   */
  warmProfileSyncsEarly: boolean;
  /**
   * After the sync a "What's new" modal (`[role=dialog][aria-modal=true]`, in the account's
   * language, a Close button) is shown; not acknowledged within this time, the phone logs the
   * device out (`logout_from_bridge` → `disconnected: LOGOUT`). Real WhatsApp: about five minutes,
   * fresh accounts (OpenWA #982 and PR #998; whatsapp-web.js #3550). null: no modal. page/changes.js.
   */
  onboardingModalLogoutMs: number | null;
  /** The account's language (the modal's text): `en` unless set (`pt-BR`, `de`). */
  locale?: 'en' | 'pt-BR' | 'de';
  /**
   * The media prep path is gone (`WAWebPrepRawMedia.prepRawMedia` undefined): a broken capability
   * that no compat fix covers, for the engine health and held sends (not a reported build).
   */
  mediaPrepMissing: boolean;
  /**
   * October 2026 changes (page/october.js), each citing its report:
   * `qrIdleAfterRefs`: after this many QR refs the QR stops (`UNPAIRED_IDLE`, WhatsApp's "click
   * to reload the QR code") until a refresh; null: the refs rotate forever. whatsapp-web.js 1.34.7
   * refreshes from Node (Client.js:281-293, `window.require(...)` where `window` is undefined:
   * WAHA #1990), so an idle QR never comes back. `cmdRefreshQRGone`: `WAWebCmd.Cmd.refreshQR`
   * is gone; `WAWebLaunchSocketUtils.refreshQR` remains (the one 1.34.7's `cancelPairingCode`
   * uses).
   */
  qrIdleAfterRefs: number | null;
  cmdRefreshQRGone: boolean;
  /**
   * `WAWebChatForwardMessage` is registered but not loaded: `require` gives undefined until its
   * bundle is loaded (`WAWebForwardMessageFlowLoadable.requireBundle()`), so 1.34.7's
   * `WWebJS.forwardMessage` fails with "Cannot read properties of undefined (reading
   * 'forwardMessages')": WAHA #2278; fixed in wppconnect wa-js PR #3582.
   */
  forwardModuleLazy: boolean;
  /**
   * `WAWebGroupModifyInfoJob.setGroupDescription` takes one options object `{ groupWid, desc,
   * newDescId, prevDescId }`; 1.34.7's positional call (GroupChat.js:418-425) then fails with
   * "Cannot read properties of undefined (reading 'toJid')": wppconnect wa-js #3595 / PR #3638,
   * OpenWA PR #1487.
   */
  groupDescriptionTakesOptions: boolean;
  /**
   * READY comes, but the page never delivers a new message to the listeners whatsapp-web.js
   * attached (the event bridge is dead): no inbound message, no `message_create`. Reported by
   * OpenWA users in October 2026 (issue 36); no public fix.
   */
  eventBridgeDead: boolean;
  /**
   * Blocking after the LID migration: `WAWebBlockContactUtils.getContactToBlockOnlyUseIfNoAssociatedChat`
   * is gone (1.34.7's `Contact.block()`/`unblock()` fail: "… is not a function"), the action wants
   * a `blockEntryPoint`, and the server refuses a phone-keyed block of a person whose chat is keyed
   * by LID ("trying to block a pn contact without a chat"): OpenWA's `scripts/patch-wwebjs-block.js`
   * (its patch 8), verified live 2026-08-18.
   */
  blockNeedsLid: boolean;
  /**
   * `WAWebStatusGatingUtils.canCheckStatusRankingPosterGating` is gone (the module stays): the
   * status branch of whatsapp-web.js 1.34.7's `WWebJS.sendMessage` (Injected/Utils.js:537-552)
   * calls it for the message's `cannotBeRanked` before posting, so every status send fails with
   * "… canCheckStatusRankingPosterGating is not a function" and nothing is posted. WhatsApp Web
   * around 2026-04-30 (OpenWA #455); OpenWA's `scripts/patch-wwebjs-status.js` (its patch 2: the
   * helper when present, `false` when not). page/october.js.
   */
  statusGatingGone: boolean;
  /**
   * `WAWebSendStatusMsgAction.sendStatusMediaMsgAction` takes one options object
   * `{ mediaMsgData, beforeSend, funnelContext }` instead of `(msgData, mediaUpdate)`: 1.34.7's
   * positional call (Injected/Utils.js:565-571) fails inside the page with "Cannot read properties
   * of undefined (reading 'id')" and no image or video status is posted; text statuses are not
   * affected. whatsapp-web.js #201807 (2026-07-01, both bundles quoted), PR #201816 (open); OpenWA's
   * `scripts/patch-wwebjs-status.js` (patch 2, its second part). No report names the first build:
   * the double switches it on for the builds reported after July 2026. page/status.js.
   */
  statusMediaTakesOptions: boolean;
  /** Time between OPENING and the first settled state after load. */
  bootDelayMs: number;
  /** Time between OPENING and CONNECTED once linked. */
  connectDelayMs: number;
  /** Time between CONNECTED (with a listener) and `hasSynced`. */
  syncDelayMs: number;
  /** Life of one QR ref before the next one replaces it. */
  qrRefreshMs: number;
  /** Time to each ack step of a sent message (1 server, 2 delivered). */
  ackDelayMs: number;
}

const TIMING = {
  bootDelayMs: 50,
  connectDelayMs: 50,
  syncDelayMs: 50,
  qrRefreshMs: 20_000,
  ackDelayMs: 20,
} as const;

/** The last build before the message-key rename (wa-js #3484: ≤ 2.3000.1042386815). */
export const BASELINE_BUILD: DoubleBuild = {
  version: '2.3000.1042386815',
  keySerializedField: '_serialized',
  mediaPrepClobbersId: false,
  downloadRequiresMimetype: false,
  warmProfileSyncsEarly: false,
  onboardingModalLogoutMs: null,
  mediaPrepMissing: false,
  qrIdleAfterRefs: null,
  cmdRefreshQRGone: false,
  forwardModuleLazy: false,
  groupDescriptionTakesOptions: false,
  eventBridgeDead: false,
  blockNeedsLid: false,
  statusGatingGone: false,
  statusMediaTakesOptions: false,
  ...TIMING,
};

/** 2026-07: the message key's `_serialized` renamed to `$1` (seen on 2.3000.1043159177, #201830). */
export const KEY_RENAME_BUILD: DoubleBuild = {
  ...BASELINE_BUILD,
  version: '2.3000.1043159177',
  keySerializedField: '$1',
};

/** 2026-09-17: the key rename still there, and every media send broken (#201923's comment). */
export const MEDIA_ID_CLOBBER_BUILD: DoubleBuild = {
  ...KEY_RENAME_BUILD,
  version: '2.3000.1047775310',
  mediaPrepClobbersId: true,
  statusMediaTakesOptions: true,
};

/** The download MIME check rolled out: inbound downloads without one refused (#201908, #201914). */
export const DOWNLOAD_MIMETYPE_BUILD: DoubleBuild = {
  ...BASELINE_BUILD,
  version: '2.3000.1046000000',
  downloadRequiresMimetype: true,
};

/** A warm profile syncs before whatsapp-web.js listens (Client.js:400-410). */
export const READY_RACE_BUILD: DoubleBuild = {
  ...BASELINE_BUILD,
  version: '2.3000.1046100000',
  warmProfileSyncsEarly: true,
};

/**
 * The onboarding modal that gets the device logged out (OpenWA #982; #3550), in the account's
 * language (Portuguese by default: no English to match). `logoutMs` is the double's short stand-in
 * for WhatsApp's five minutes.
 */
export const onboardingModalBuild = (
  logoutMs: number,
  locale: DoubleBuild['locale'] = 'pt-BR',
): DoubleBuild => ({
  ...BASELINE_BUILD,
  version: '2.3000.1046200000',
  onboardingModalLogoutMs: logoutMs,
  locale,
});

/** A build whose media prep path is absent: no compat fix covers it (engine health). */
export const NO_MEDIA_PREP_BUILD: DoubleBuild = {
  ...BASELINE_BUILD,
  version: '2.3000.1046300000',
  mediaPrepMissing: true,
};

/**
 * 2.3000.1048901417: `Cmd.refreshQR` gone (issue 36), and the QR goes idle after a few refs as
 * WhatsApp Web's does (`qrIdleAfterRefs`); `qrRefreshMs` short so a test sees it idle quickly.
 */
export const QR_REFRESH_BUILD: DoubleBuild = {
  ...KEY_RENAME_BUILD,
  version: '2.3000.1048901417',
  cmdRefreshQRGone: true,
  statusMediaTakesOptions: true,
  qrIdleAfterRefs: 2,
  qrRefreshMs: 500,
};

/** 2.3000.1049007170: the forward module is registered but not requirable (WAHA #2278). */
export const FORWARD_LAZY_BUILD: DoubleBuild = {
  ...KEY_RENAME_BUILD,
  version: '2.3000.1049007170',
  forwardModuleLazy: true,
  statusMediaTakesOptions: true,
};

/**
 * `setGroupDescription` takes an options object (wa-js #3595, PR #3638, which read this version's
 * bundle; whatsapp-web.js PR #201895; OpenWA PR #1487).
 */
export const GROUP_DESCRIPTION_BUILD: DoubleBuild = {
  ...KEY_RENAME_BUILD,
  version: '2.3000.1046899131',
  groupDescriptionTakesOptions: true,
  blockNeedsLid: true,
};

/**
 * READY, and the page never delivers a new message to whatsapp-web.js (OpenWA users, October).
 * The version is synthetic: no report names the build.
 */
export const DEAD_BRIDGE_BUILD: DoubleBuild = {
  ...KEY_RENAME_BUILD,
  version: '2.3000.1049100000',
  eventBridgeDead: true,
};

/**
 * Blocking needs the chat-owning (LID) identity (OpenWA patch 8, scripts/patch-wwebjs-block.js).
 * The version is synthetic: the patch (verified live 2026-08-18) names no build.
 */
export const BLOCK_LID_BUILD: DoubleBuild = {
  ...KEY_RENAME_BUILD,
  version: '2.3000.1048000000',
  blockNeedsLid: true,
};

/**
 * Status sends: the ranking gate helper gone (OpenWA #455, scripts/patch-wwebjs-status.js). The
 * version is synthetic: the report names no build.
 */
export const STATUS_GATING_GONE_BUILD: DoubleBuild = {
  ...KEY_RENAME_BUILD,
  version: '2.3000.1048100000',
  statusGatingGone: true,
};

/**
 * The newest build: every change above that a fix answers. `COMPAT_WEB_VERSION`
 * (src/engines/wwebjs/compat/index.ts), the default `engine.webVersion`, should name it.
 */
export const NEWEST_BUILD: DoubleBuild = {
  ...MEDIA_ID_CLOBBER_BUILD,
  version: '2.3000.1049007170',
  downloadRequiresMimetype: true,
  cmdRefreshQRGone: true,
  forwardModuleLazy: true,
  groupDescriptionTakesOptions: true,
  blockNeedsLid: true,
  statusGatingGone: true,
  statusMediaTakesOptions: true,
};

export const BUILDS = [
  BASELINE_BUILD,
  KEY_RENAME_BUILD,
  MEDIA_ID_CLOBBER_BUILD,
  DOWNLOAD_MIMETYPE_BUILD,
  READY_RACE_BUILD,
  NO_MEDIA_PREP_BUILD,
  QR_REFRESH_BUILD,
  FORWARD_LAZY_BUILD,
  GROUP_DESCRIPTION_BUILD,
  DEAD_BRIDGE_BUILD,
  BLOCK_LID_BUILD,
  STATUS_GATING_GONE_BUILD,
  NEWEST_BUILD,
] as const;
