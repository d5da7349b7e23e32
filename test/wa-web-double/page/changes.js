/* global window, document, localStorage, setTimeout, clearTimeout */
/**
 * WhatsApp Web double, part 9: the build switches of later WhatsApp Web changes (builds.ts cites
 * the report of each), applied over the parts before it. Off in the baseline build.
 */
(function () {
  const D = window.__double;
  const { build } = D;

  // ------------------------------------------------ the MIME check of downloads (#201908)
  // Behind a rollout flag (WhatsApp's `justknobx` gates); checked on the fetched file, after the
  // download, with a missing MIME type read as application/octet-stream, which no media type
  // allows; a file already in the in-memory blob cache is never fetched, so never checked.
  D.rollout = { downloadMimetypeCheck: Boolean(build.downloadRequiresMimetype) };
  D.define('justknobx', { _: (knob) => Boolean(D.rollout[knob]) });
  const InvalidMediaFileType = D.customError('InvalidMediaFileType');
  const ALLOWED = {
    image: /^image\//,
    video: /^video\//,
    audio: /^audio\//,
    ptt: /^audio\//,
    sticker: /^image\/webp$/,
  };
  const handOut = D.afterDownload;
  D.afterDownload = (file) => {
    const mimetype = file.mimetype || 'application/octet-stream';
    const allowed = ALLOWED[file.type] ?? /^(?!application\/octet-stream$)/;
    if (D.modules.justknobx._('downloadMimetypeCheck') && !allowed.test(mimetype)) {
      throw Object.assign(
        new InvalidMediaFileType(`Unexpected mimetype ${mimetype} for media type ${file.type}`),
        { mediaType: file.type, mimetype },
      );
    }
    return handOut(file);
  };

  // ------------------------------------------------ a warm profile syncs before the listener
  if (build.warmProfileSyncsEarly) {
    let restoring = false;
    const connect = D.connect;
    D.connect = (me, options) => {
      restoring = !options.persist;
      return connect(me, options);
    };
    D.Socket.on('change:state', (_socket, state) => {
      if (state === 'CONNECTED' && restoring) D.Socket.set('hasSynced', true);
    });
  }

  // ------------------------------------------------ the onboarding modal (OpenWA #982, #3550)
  // A modal dialog in the account's language, with a Close button (an icon, labelled in that
  // language); no English text, no id or class to match.
  const MODAL_TEXT = {
    en: ["What's new on WhatsApp Web", 'Chats, calls and more.', 'Close'],
    'pt-BR': ['Novidades no WhatsApp Web', 'Conversas, chamadas e muito mais.', 'Fechar'],
    de: ['Neu in WhatsApp Web', 'Chats, Anrufe und mehr.', 'Schließen'],
  };
  if (build.onboardingModalLogoutMs !== null) {
    const SEEN = 'double-onboarding-acknowledged';
    const [title, body, close] = MODAL_TEXT[build.locale ?? 'en'];
    D.modalShown = 0;
    let open = null;
    // on `change`, not `change:hasSynced`: that event's listeners are whatsapp-web.js's alone
    D.Socket.on('change', (socket) => {
      if (!socket.hasSynced || !D.me || localStorage.getItem(SEEN) || open) return;
      D.modalShown += 1;
      const dialog = document.createElement('div');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-labelledby', 'x1n2k8');
      dialog.innerHTML =
        `<div><div id="x1n2k8">${title}</div><div>${body}</div></div>` +
        `<div><button type="button" aria-label="${close}"><span data-icon="x"></span></button></div>`;
      open = dialog;
      const timer = setTimeout(async () => {
        // not acknowledged: the phone unlinks the companion, as an unpair does
        await D.unlink();
        D.Cmd.trigger('logout_from_bridge');
        setTimeout(() => window.location.reload(), 300);
      }, build.onboardingModalLogoutMs);
      dialog.querySelector('button').addEventListener('click', () => {
        clearTimeout(timer);
        localStorage.setItem(SEEN, '1');
        dialog.remove();
        open = null;
      });
      document.body.appendChild(dialog);
    });
  }

  // ------------------------------------------------ a build without the media prep path
  if (build.mediaPrepMissing) D.modules.WAWebPrepRawMedia.prepRawMedia = undefined;
})();
