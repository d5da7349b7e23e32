/* global window, document, localStorage, setTimeout, clearTimeout */
/**
 * WhatsApp Web double, part 9: the build switches of later WhatsApp Web changes (builds.ts cites
 * the report of each), applied over the parts before it. Off in the baseline build.
 */
(function () {
  const D = window.__double;
  const { build } = D;

  // ------------------------------------------------ downloads need the MIME type (WAHA #2271)
  if (build.downloadRequiresMimetype) {
    const manager = D.modules.WAWebDownloadManager.downloadManager;
    const download = manager.downloadAndMaybeDecrypt;
    manager.downloadAndMaybeDecrypt = async (args) => {
      if (!args || !args.mimetype) {
        const error = new Error(`no mimetype given for ${args?.type} media`);
        error.name = 'InvalidMediaFileType';
        throw error;
      }
      return download(args);
    };
  }

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
  if (build.onboardingModalLogoutMs !== null) {
    const SEEN = 'double-onboarding-acknowledged';
    D.modalShown = 0;
    D.Socket.on('change:hasSynced', (_socket, synced) => {
      if (!synced || !D.me || localStorage.getItem(SEEN) || document.querySelector('#onboarding'))
        return;
      D.modalShown += 1;
      const dialog = document.createElement('div');
      dialog.id = 'onboarding';
      dialog.setAttribute('role', 'dialog');
      dialog.innerHTML =
        "<h1>What's new on WhatsApp Web</h1><p>Chats, calls and more.</p><button>Continue</button>";
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
      });
      document.body.appendChild(dialog);
    });
  }

  // ------------------------------------------------ a build without the media prep path
  if (build.mediaPrepMissing) D.modules.WAWebPrepRawMedia.prepRawMedia = undefined;
})();
