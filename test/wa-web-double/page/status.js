/* global window */
/**
 * WhatsApp Web double, part 6: posting a status (`status@broadcast`), as
 * `WAWebSendStatusMsgAction` does. whatsapp-web.js 1.34.7 builds a Msg of its own and hands the page
 * only part of it (Injected/Utils.js:537-574): a text status gets `{ color, font, text }`; a media
 * status gets the message and its media update. The page builds the message it posts itself, from
 * that data. october.js removes the ranking gate (STATUS_GATING_GONE).
 *
 * The media action's signature depends on the build (`statusMediaTakesOptions`), as the bundles
 * quoted in whatsapp-web.js #201807 have it:
 * - before: `sendStatusMediaMsgAction(e, t)`: `e` the message data, `t` called with the page's own
 *   Msg once its media prep is done (whatsapp-web.js passes `mediaUpdate`);
 * - after: `sendStatusMediaMsgAction({ mediaMsgData, beforeSend, funnelContext })`: one parameter,
 *   the same two things named; the positional call reads `undefined.id` and throws "Cannot read
 *   properties of undefined (reading 'id')" (#201807, PR #201816).
 * A failing `t`/`beforeSend` is caught by the page: the action resolves `ERROR_UPLOAD` and posts
 * nothing. The page's LID status migration (`matWidConvert` of the key's participant, `from` and
 * `author`) is the identity here: the double keys the bot's status by its phone id.
 */
(function () {
  const D = window.__double;
  const { build } = D;

  D.define('WAWebStatusGatingUtils', { canCheckStatusRankingPosterGating: () => false });

  /** `WAWebMediaUpdateMsg(msg, mediaData)`: the prepared, uploaded medium onto the message. */
  const mediaUpdate = (msg, media) => {
    const json = typeof media?.toJSON === 'function' ? media.toJSON() : { ...media };
    const { id: _id, __x_id: _internal, mediaBlob: _blob, ...fields } = json;
    msg.set(fields);
  };
  D.define('WAWebMediaUpdateMsg', mediaUpdate);

  const me = () => D.wid(D.me.pn);

  /** The page's own message from the data it was given (the bundle's `babelHelpers.extends`). */
  const postMedia = async (data, beforeSend) => {
    const { fromMe, remote, id, participant } = data.id; // the first read of the data
    const plain = typeof data.serialize === 'function' ? data.serialize() : { ...data };
    const msg = new D.Msg({
      ...plain,
      id: new D.MsgKey({ fromMe, remote, id, participant }),
      from: data.from,
      author: me(),
      isNewMsg: true,
    });
    try {
      await beforeSend(msg);
    } catch {
      return { messageSendResult: 'ERROR_UPLOAD' }; // the page logs it and posts nothing
    }
    D.post(D.chatFor('status@broadcast'), msg);
    return { messageSendResult: 'OK', msg };
  };

  D.define('WAWebSendStatusMsgAction', {
    sendStatusTextMsgAction: async ({ text, color, font }) => {
      const chat = D.chatFor('status@broadcast');
      const id = new D.MsgKey({
        from: me(),
        to: chat.id,
        id: D.newMessageId(),
        participant: me(),
        selfDir: 'out',
      });
      const msg = D.post(
        chat,
        new D.Msg({
          id,
          from: me(),
          to: chat.id,
          author: me(),
          t: D.now(),
          self: 'out',
          type: 'chat',
          body: text,
          backgroundColor: color,
          font,
          isNewMsg: true,
        }),
      );
      return { messageSendResult: 'OK', msg };
    },
    // the arity is the bundle's: two parameters before, one options object after
    sendStatusMediaMsgAction: build.statusMediaTakesOptions
      ? async function (t) {
          const { beforeSend, mediaMsgData } = t;
          return postMedia(mediaMsgData, beforeSend);
        }
      : async function (e, t) {
          return postMedia(e, t);
        },
  });
})();
