import { WakitError } from '../../errors/index.js';
import type { Engine } from '../engine.js';
import { isMessageKindContent } from '../ports/messages.js';
import type { SimRecord } from './account.js';
import type { SimDevice } from './device.js';
import { ownMessage, payloadOf } from './messages.js';
import { kindPayload } from './message-kinds.js';
import type { SimPayload } from './phone-payload.js';

export type OutgoingPorts = Pick<Engine, 'send' | 'forward' | 'downloadMedia'>;

/**
 * What one simulator engine sends: messages of every kind and forwards onto the network, each
 * echoed as `message.create` and acknowledged on timers (sent, delivered, read; -1 when the
 * delivery fails), after `latencyMs`; plus the media of what it can see.
 */
export function outgoing(device: SimDevice): OutgoingPorts {
  const { network, engine } = device;
  const config = network.config;

  const progressAcks = (record: SimRecord, failed: boolean, blocked: boolean): void => {
    const update = (ack: -1 | 1 | 2 | 3) => {
      record.ack = ack;
      engine.fire('message.ack', { messageId: record.id, chatId: record.target, ack });
    };
    if (failed) {
      device.after(config.ackDelayMs, () => update(-1));
      return;
    }
    let next: 1 | 2 | 3 = 1;
    device.after(config.ackDelayMs, () => {
      update(next);
      if (next === (blocked ? 1 : 3)) return false;
      next = (next + 1) as 2 | 3;
      return true;
    });
  };

  const post = async (chatId: string, payload: SimPayload): Promise<{ id: string }> => {
    const account = device.ready();
    let target = network.resolveTarget(account, chatId);
    if (config.latencyMs > 0) {
      await device.sleep(config.latencyMs);
      target = network.resolveTarget(device.ready(), chatId);
    }
    const failed = network.deliveryFails(target.id);
    // 463, or a silent restriction: one tick, never delivered
    const silenced =
      target.account !== undefined &&
      network.restrictions?.admit(account.id, target.account.id) === 'undelivered';
    const record = network.post(account, target, payload, !failed && !silenced, engine);
    if (failed) record.ack = -1;
    engine.fire('message.create', ownMessage(record, account));
    // Someone who blocked this account never gets its messages: one tick (sent) only.
    const blocked = target.account?.book.blocked.has(account.id) ?? false;
    progressAcks(record, failed, blocked || silenced);
    return { id: record.id };
  };

  return {
    send: async (chatId, content) => {
      network.build.check(content.kind);
      // `sendSeen: true` marks the chat seen first (whatsapp-web.js does so unless it is false)
      if (content.kind === 'text' && content.options.sendSeen === true) {
        network.actions.seen(device.ready(), chatId);
      }
      if (!isMessageKindContent(content)) return post(chatId, payloadOf(content));
      return post(chatId, kindPayload(network, device.ready(), content));
    },
    forward: async (messageId, chatId) => {
      device.ready();
      network.build.check('forward');
      const original = network.findMessage(messageId);
      if (!original) throw new WakitError('MESSAGE_NOT_FOUND', `message ${messageId} is unknown`);
      return post(chatId, {
        type: original.type,
        body: original.body,
        caption: original.caption,
        media: original.media,
        location: original.location,
        poll: original.poll,
        vcards: original.vcards,
        isForwarded: true,
      });
    },
    downloadMedia: (messageId) => {
      network.build.check('download');
      const media = network.findMessage(messageId)?.media;
      if (!media) {
        return Promise.reject(
          new WakitError('MEDIA_NOT_FOUND', `message ${messageId} has no downloadable media`),
        );
      }
      return Promise.resolve({
        data: Buffer.from(media.data),
        mimetype: media.mimetype,
        filename: media.filename,
      });
    },
  };
}
