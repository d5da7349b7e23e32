/**
 * The built-in tools besides `handoff` (docs/ai.md#built-in-tools), each turned on by the
 * plugin's `tools` options: `schedule_message` (a scheduled send to this chat), `start_conversation`
 * (one of the conversations the bot named) and `look_up_chat` (what the public API tells of the
 * chat). Built per turn: a tool that changes something counts its uses against its cap per turn,
 * and a refusal is a result the model reads, never a throw.
 */
import { z, type PluginContext } from '../../src/index.js';
import * as contract from '../../src/entries/contract.js';
import type * as http from '../../src/entries/http.js';
import { defineAiTool, type AiTool } from './tools.js';
import type { AiOptions } from './options.js';

export interface BuiltInDeps {
  ctx: Pick<PluginContext, 'env' | 'conversations' | 'clients'>;
  chats: Pick<http.PrivilegedServices['chats'], 'mode'>;
  options: AiOptions['tools'];
}

/** Where the turn happens: the chat, and whether a conversation is the caller (`ai.ask`). */
export interface TurnPlace {
  client: string;
  chatId: string;
  /** The person's display name, when the message carried one. */
  contactName?: string;
  /** `ai.ask` inside a conversation: no conversation is started from there. */
  inConversation: boolean;
  /** Set by `start_conversation`: the conversation started (the model is not called again). */
  conversation?: string;
}

export function builtInTools(deps: BuiltInDeps, place: TurnPlace): AiTool[] {
  const tools: AiTool[] = [];
  if (deps.options.lookUpChat) tools.push(lookUpChat(deps, place));
  if (deps.options.schedule.policy === 'allow') tools.push(scheduleMessage(deps, place));
  const start = deps.options.startConversation;
  if (start.policy === 'allow' && start.conversations.length > 0 && !place.inConversation) {
    tools.push(startConversation(deps, place));
  }
  return tools;
}

function lookUpChat(deps: BuiltInDeps, place: TurnPlace): AiTool {
  return defineAiTool({
    name: 'look_up_chat',
    description:
      "What is known of this chat: whether it is a group, its name, the contact's name, who answers it (mode) and the current time.",
    parameters: z.object({}),
    run: async () => {
      const { mode } = await deps.chats.mode(place.client, place.chatId);
      let name: string | undefined;
      try {
        name = (await deps.ctx.clients.get(place.client).chats.get(place.chatId)).name;
      } catch {
        // not reported: a chat the engine does not list yet (a first message) has no name to give
        name = undefined;
      }
      return {
        isGroup: contract.isGroupId(place.chatId),
        mode,
        ...(name ? { chatName: name } : {}),
        ...(place.contactName ? { contactName: place.contactName } : {}),
        now: new Date(deps.ctx.env.now()).toISOString(),
      };
    },
  });
}

function scheduleMessage(deps: BuiltInDeps, place: TurnPlace): AiTool {
  const { maxPerTurn, maxAheadMs } = deps.options.schedule;
  const queueAhead = deps.ctx.env.config.queue.schedule.maxAheadMs;
  const ahead = Math.min(maxAheadMs, queueAhead);
  const now = deps.ctx.env.now();
  let used = 0;
  return defineAiTool({
    name: 'schedule_message',
    description: `Schedule a WhatsApp message to this chat for a later time (a reminder, a follow-up). The time is RFC 3339 with an offset, e.g. 2026-12-24T18:00:00Z. Now is ${new Date(now).toISOString()}; at most ${Math.floor(ahead / 3_600_000)} hours ahead. At most ${maxPerTurn} per answer.`,
    parameters: z.object({
      text: z.string().min(1).max(4_096),
      sendAt: z.iso.datetime({ offset: true }),
    }),
    run: async ({ text, sendAt }) => {
      const at = Date.parse(sendAt);
      const current = deps.ctx.env.now();
      if (used >= maxPerTurn) {
        return `refused: at most ${maxPerTurn} scheduled message(s) per answer`;
      }
      if (at <= current) {
        return `refused: ${sendAt} is not in the future (now is ${new Date(current).toISOString()})`;
      }
      if (at - current > ahead) {
        return `refused: ${sendAt} is too far ahead (latest ${new Date(current + ahead).toISOString()})`;
      }
      used += 1;
      const queued = await deps.ctx.clients
        .get(place.client)
        .enqueue(contract.prepareContent(place.chatId, text), {
          sendAt: at,
          idempotencyScope: 'plugin:ai',
        });
      // the turn does not wait for the send: its outcome is the outbox's (listed, cancellable)
      queued.result.catch(() => {
        // not reported: the queue reports a failed send (message.status, the error sink)
      });
      return { scheduled: true, id: queued.trackingId, sendAt: new Date(at).toISOString() };
    },
  });
}

function startConversation(deps: BuiltInDeps, place: TurnPlace): AiTool {
  const allowed = deps.options.startConversation.conversations;
  const names = allowed.map((c) => c.name) as [string, ...string[]];
  let started = false;
  return defineAiTool({
    name: 'start_conversation',
    description: `Start a guided conversation with the person in this chat; it asks its own questions, so write nothing after it. One of: ${allowed.map((c) => `${c.name} (${c.description})`).join('; ')}.`,
    parameters: z.object({ name: z.enum(names) }),
    run: async ({ name }) => {
      if (started) return 'refused: one conversation per answer';
      started = true;
      const info = await deps.ctx.conversations.start(place.client, place.chatId, name);
      place.conversation = info.name;
      return { started: info.name, note: 'The conversation now talks with the person.' };
    },
  });
}
