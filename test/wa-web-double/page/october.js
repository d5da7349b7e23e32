/* global window */
/**
 * WhatsApp Web double, part 10: the October 2026 changes (builds.ts cites the report of each),
 * applied over the parts before it. Off in the baseline build. (The QR going idle after a few refs
 * is the socket's own behaviour: socket.js, `qrIdleAfterRefs`.)
 */
(function () {
  const D = window.__double;
  const { build } = D;

  // ------------------------------------------------ blocking (WAWebBlockContact*), every build
  const Blocklist = D.modules.WAWebCollections.Blocklist;
  const idOf = (contact) => contact.id._serialized;
  D.blocked = () => [...Blocklist.index.keys()];
  const utils = D.define('WAWebBlockContactUtils', {
    getContactToBlockOnlyUseIfNoAssociatedChat: (contact) => contact,
  });
  D.define('WAWebBlockContactAction', {
    blockContact: async ({ contact, blockEntryPoint }) => {
      if (build.blockNeedsLid) {
        if (!blockEntryPoint) throw new TypeError('blockContact: no blockEntryPoint');
        if (!contact.id.isLid() && D.lidOf(contact.id)) {
          throw new Error('[blocklist] trying to block a pn contact without a chat');
        }
      }
      Blocklist.add(new D.Model({ id: idOf(contact) }));
    },
    unblockContact: async (contact) => {
      Blocklist.remove(idOf(contact));
    },
  });
  // after the LID migration (OpenWA patch 8): the helper is gone, a pn-keyed block is refused
  if (build.blockNeedsLid) utils.getContactToBlockOnlyUseIfNoAssociatedChat = undefined;

  // ------------------------------------------------ Cmd.refreshQR gone (2.3000.1048901417)
  // WAWebLaunchSocketUtils.refreshQR stays: the only refresh left.
  if (build.cmdRefreshQRGone) delete D.Cmd.refreshQR;

  // ------------------------------------------------ the forward module in a lazy bundle (WAHA #2278)
  if (build.forwardModuleLazy) {
    let loaded = false;
    const require = window.require;
    // registered, not loaded: WhatsApp's require hands back undefined, it does not throw
    window.require = (name) =>
      name === 'WAWebChatForwardMessage' && !loaded ? undefined : require(name);
    D.define('WAWebForwardMessageFlowLoadable', {
      requireBundle: async () => {
        await D.sleep(5);
        loaded = true;
      },
    });
  }

  // ------------------------------------------------ setGroupDescription(options) (wa-js #3595)
  if (build.groupDescriptionTakesOptions) {
    const job = D.modules.WAWebGroupModifyInfoJob;
    const positional = job.setGroupDescription;
    const widToGroupJid = (wid) => wid.toJid(); // as the page does: a Wid is required
    // one parameter, as the page bundle has it (OpenWA PR #1487 deminified it)
    job.setGroupDescription = async function (t) {
      const { desc, groupWid, newDescId } = t;
      widToGroupJid(groupWid);
      return positional(groupWid, desc ?? '', newDescId);
    };
  }

  // ------------------------------------------------ the status ranking gate gone (OpenWA patch 2)
  // the module stays, the helper is gone: calling it is "… is not a function"
  if (build.statusGatingGone) {
    D.modules.WAWebStatusGatingUtils.canCheckStatusRankingPosterGating = undefined;
  }

  // ------------------------------------------------ the event bridge never attached (October)
  if (build.eventBridgeDead) {
    // the double's own listeners are in place at load; whatever listens later (whatsapp-web.js's
    // attachEventListeners) is kept and never called: READY, and not one new message arrives
    const Msg = D.modules.WAWebCollections.Msg;
    const on = Msg.on;
    Msg.on = function (names, fn) {
      const kept = names
        .split(' ')
        .filter((name) => name !== 'add')
        .join(' ');
      return kept ? on.call(this, kept, fn) : this;
    };
  }
})();
