/**
 * forwarder: routes incoming messages to other chats. `forward` uses WhatsApp's native forward;
 * `copy` re-sends the text (or image) as a new message with an optional prefix naming the sender.
 * No loops, also between deployments that know nothing of each other: messages of the bot's own
 * accounts are never routed; messages that are already forwarded, or copies (they carry an
 * invisible marker counting hops), are skipped unless a route asks for them, and then only up to
 * `maxHops`; every route has a rate cap. A failing target does not stop the others.
 */
import {
  chatIdSchema,
  definePlugin,
  regexSourceSchema,
  z,
  type BotClient,
  type Message,
  type Next,
  type PluginContext,
  chatKindOf,
} from '../../src/index.js';
import * as contract from '../../src/entries/contract.js';
import { hopsOf, mark, unmark } from './marker.js';
import { RouteRate } from './route-rate.js';

const routeSchema = z
  .object({
    /** A chat id, or `*` for every chat. */
    from: z.union([z.literal('*'), chatIdSchema]),
    to: z.array(chatIdSchema).min(1),
    /** Only messages whose text (or caption) matches this regular expression (case-insensitive). */
    match: regexSourceSchema.optional(),
    /** Only these message types (`chat`, `image`, `video`, `audio`, `ptt`, `document`, `sticker`, ...). */
    types: z.array(z.string().min(1)).optional(),
    mode: z.enum(['forward', 'copy']).default('forward'),
    /** Copy mode: text put before the copy; `{{name}}`, `{{from}}` and `{{chat}}` are replaced. */
    prefix: z.string().max(1024).optional(),
    /**
     * Messages already forwarded (WhatsApp's forwarded flag) or copied by a forwarder (its marker):
     * `skip` them (default: two bridges can never loop) or `route` them, up to `maxHops`.
     */
    forwarded: z.enum(['skip', 'route']).default('skip'),
    /** A copy of a copy... is made at most this many times (copy mode counts hops in its marker). */
    maxHops: z.number().int().min(1).max(10).default(3),
    /** At most `max` messages per `windowMs` go through this route; the rest are dropped (warned). */
    rateLimit: z
      .object({
        max: z.number().int().min(1).default(30),
        windowMs: z.number().int().min(1_000).default(60_000),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((route, ctx) => {
    // WhatsApp forwards only into conversations; copies may also go to channels and status.
    if (route.mode !== 'forward') return;
    route.to.forEach((target, i) => {
      const kind = chatKindOf(target);
      if (kind && !contract.FORWARD_TARGET_KINDS.includes(kind)) {
        ctx.addIssue({
          code: 'custom',
          path: ['to', i],
          message: `${target} cannot receive forwards (a ${kind}); use mode "copy"`,
        });
      }
    });
  });

export const forwarderOptions = z
  .object({
    routes: z.array(routeSchema).default([]),
    /** Only on these clients (names); all when absent. */
    clients: z.array(z.string()).optional(),
  })
  .strict();

export type ForwarderOptions = z.input<typeof forwarderOptions>;
type Route = z.output<typeof routeSchema>;

interface CompiledRoute {
  route: Route;
  match: RegExp | undefined;
  types: ReadonlySet<string> | undefined;
  rate: RouteRate;
}

function renderPrefix(template: string, message: Message): string {
  const number = (message.sender.phone ?? message.sender.id).split('@')[0];
  const values: Record<string, string> = {
    name: message.notifyName || number,
    from: number,
    chat: message.chatId,
  };
  return template.replace(/\{\{\s*(name|from|chat)\s*\}\}/g, (_, key: string) => values[key] ?? '');
}

/** Ids of the bot's own accounts (any client): their messages are never routed. */
function ownAccounts(clients: readonly BotClient[]): Set<string> {
  const ids = new Set<string>();
  for (const client of clients) {
    const me = client.info().me;
    if (me) ids.add(me.id);
  }
  return ids;
}

async function deliver(
  ctx: PluginContext<unknown>,
  client: BotClient,
  message: Message,
  route: Route,
  target: string,
  hops: number,
): Promise<void> {
  if (route.mode === 'forward') {
    await message.forward(target);
    return;
  }
  const prefix = route.prefix ? renderPrefix(route.prefix, message) : '';
  const body = unmark(message.body);
  if (!message.hasMedia) {
    await ctx.send(client.name, target, mark(`${prefix}${body}`, hops + 1));
    return;
  }
  if (message.type === 'image') {
    const media = await message.downloadMedia();
    await ctx.send(client.name, target, {
      type: 'image',
      buffer: Buffer.from(media.data, 'base64'),
      mimetype: media.mimetype,
      caption: mark(`${prefix}${body}`, hops + 1),
    });
    return;
  }
  // other media can only be sent from a URL: name the sender, then forward the original
  if (prefix.trim()) await ctx.send(client.name, target, mark(prefix.trim(), hops + 1));
  await message.forward(target);
}

export default definePlugin({
  name: 'forwarder',
  version: '1.0.0',
  options: forwarderOptions,
  setup(ctx) {
    const routes: CompiledRoute[] = ctx.options.routes.map((route) => ({
      route,
      match: route.match !== undefined ? new RegExp(route.match, 'i') : undefined,
      types: route.types ? new Set(route.types) : undefined,
      rate: new RouteRate(route.rateLimit.max, route.rateLimit.windowMs),
    }));

    ctx.on(
      'message',
      (event, next) => {
        const { message } = event;
        if (routes.length === 0 || message.fromMe) return next();
        const chatId = message.chatId;
        // a copy made by a forwarder is `hops` deep; a native forward counts as one hop at least
        const marked = hopsOf(message.body);
        const hops = Math.max(marked, message.isForwarded === true ? 1 : 0);
        const text = marked > 0 ? unmark(message.body) : message.body;
        // A private chat with a LID user matches a route naming the person by phone or LID.
        const alias = message.isGroup ? undefined : message.sender.phone;
        // Channel posts, statuses and broadcasts only go where a route names them explicitly.
        const explicitOnly = message.broadcast || message.isChannel || message.isStatus;
        let matching: CompiledRoute[] | undefined;
        for (const compiled of routes) {
          const { route, match, types } = compiled;
          if (route.from === '*' ? explicitOnly : route.from !== chatId && route.from !== alias)
            continue;
          if (hops > 0 && (route.forwarded === 'skip' || hops >= route.maxHops)) continue;
          if (types && !types.has(message.type)) continue;
          if (match && !match.test(text)) continue;
          (matching ??= []).push(compiled);
        }
        if (!matching) return next();
        return route(event.client, message, matching, hops, next);
      },
      ctx.options.clients ? { clients: ctx.options.clients } : {},
    );

    async function route(
      client: BotClient,
      message: Message,
      matching: CompiledRoute[],
      hops: number,
      next: Next,
    ): Promise<void> {
      await next();
      const own = ownAccounts(ctx.clients.list());
      if (own.has(message.sender.id) || own.has(message.sender.phone ?? '')) return;
      const jobs: Promise<void>[] = [];
      const sent = new Set<string>();
      for (const { route, rate } of matching) {
        const allowed = rate.take(() =>
          ctx.log.warn(
            { from: route.from, max: route.rateLimit.max, windowMs: route.rateLimit.windowMs },
            'forwarder: route from %s is over its rate cap (%d per %d ms): messages dropped until the window ends',
            route.from,
            route.rateLimit.max,
            route.rateLimit.windowMs,
          ),
        );
        if (!allowed) continue;
        for (const target of route.to) {
          // never back into the chat it came from, never twice to one chat
          if (target === message.chatId || sent.has(target)) continue;
          sent.add(target);
          jobs.push(
            deliver(ctx, client, message, route, target, hops).catch((error: unknown) =>
              ctx.events.report(error, {
                event: `${route.mode}:${target}`,
                client: client.name,
                messageId: message.id,
              }),
            ),
          );
        }
      }
      await Promise.all(jobs);
    }
  },
});
