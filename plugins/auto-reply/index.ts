/**
 * auto-reply: answers incoming messages by ordered rules. The first rule that matches answers
 * (through the outbound queue, `reply` priority); a per-rule, per-chat cooldown stops reply storms.
 */
import {
  chatIdSchema,
  definePlugin,
  regexSourceSchema,
  z,
  type Message,
  type Next,
  type PluginEvent,
} from '../../src/index.js';

const ruleSchema = z
  .object({
    /** Text to look for (a regular expression source with `type: "regex"`). */
    match: z.string().min(1),
    type: z.enum(['exact', 'contains', 'startsWith', 'regex']).default('contains'),
    caseSensitive: z.boolean().default(false),
    /** Answer; `{{name}}`, `{{body}}` and `{{from}}` are replaced. */
    reply: z.string().min(1).max(4096),
    /** Only in these chats. */
    chats: z.array(chatIdSchema).optional(),
    scope: z.enum(['private', 'group', 'any']).default('any'),
    /** No second answer by this rule in the same chat for this long (default: the plugin's). */
    cooldownMs: z.number().int().min(0).optional(),
    /** Quote the message that triggered the answer. */
    quote: z.boolean().default(false),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.type !== 'regex') return;
    const result = regexSourceSchema.safeParse(rule.match);
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({ code: 'custom', path: ['match'], message: issue.message });
    }
  });

export const autoReplyOptions = z
  .object({
    rules: z.array(ruleSchema).default([]),
    /** Cooldown of rules that set none. */
    cooldownMs: z.number().int().min(0).default(5_000),
    /** Only on these clients (names); all when absent. */
    clients: z.array(z.string()).optional(),
  })
  .strict();

export type AutoReplyOptions = z.input<typeof autoReplyOptions>;
type Rule = z.output<typeof ruleSchema>;

interface CompiledRule {
  rule: Rule;
  index: number;
  /** `lower` is the body in lower case (computed once per message). */
  test: (body: string, lower: string) => boolean;
  chats: ReadonlySet<string> | undefined;
  cooldownMs: number;
}

function compile(rule: Rule, index: number, defaultCooldown: number): CompiledRule {
  const sensitive = rule.caseSensitive;
  const needle = sensitive ? rule.match : rule.match.toLowerCase();
  const pick = (body: string, lower: string) => (sensitive ? body : lower);
  let test: (body: string, lower: string) => boolean;
  switch (rule.type) {
    case 'exact':
      test = (body, lower) => pick(body, lower).trim() === needle;
      break;
    case 'startsWith':
      test = (body, lower) => pick(body, lower).trimStart().startsWith(needle);
      break;
    case 'regex': {
      const regex = new RegExp(rule.match, sensitive ? '' : 'i');
      test = (body) => regex.test(body);
      break;
    }
    default:
      test = (body, lower) => pick(body, lower).includes(needle);
  }
  return {
    rule,
    index,
    test,
    chats: rule.chats ? new Set(rule.chats) : undefined,
    cooldownMs: rule.cooldownMs ?? defaultCooldown,
  };
}

/** `{{name}}` (sender's display name, else number), `{{body}}`, `{{from}}` (sender's number). */
export function renderReply(template: string, message: Message): string {
  const number = (message.sender.phone ?? message.sender.id).split('@')[0];
  const values: Record<string, string> = {
    name: message.notifyName || number,
    body: message.body,
    from: number,
  };
  return template.replace(/\{\{\s*(name|body|from)\s*\}\}/g, (_, key: string) => values[key] ?? '');
}

const COOLDOWN_LIMIT = 10_000;

export default definePlugin({
  name: 'auto-reply',
  version: '1.0.0',
  options: autoReplyOptions,
  setup(ctx) {
    const rules = ctx.options.rules.map((rule, i) => compile(rule, i, ctx.options.cooldownMs));
    /** `<rule>|<client>|<chat>` → time the cooldown ends. */
    const cooldowns = new Map<string, number>();
    const prune = (now: number) => {
      for (const [key, until] of cooldowns) if (until <= now) cooldowns.delete(key);
      // still too many active: drop the oldest entries
      for (const key of cooldowns.keys()) {
        if (cooldowns.size <= COOLDOWN_LIMIT) break;
        cooldowns.delete(key);
      }
    };

    /** Answers, lets the rest of the chain run, then reports a failed send. */
    const answer = async (rule: CompiledRule, event: PluginEvent<'message'>, next: Next) => {
      const { message, client } = event;
      const sending = ctx
        .send(client.name, message.chatId, renderReply(rule.rule.reply, message), {
          priority: 'reply',
          ...(rule.rule.quote ? { text: { quotedMessageId: message.id } } : {}),
        })
        .then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
      await next();
      const error = await sending;
      if (error) throw error;
    };

    ctx.on(
      'message',
      (event, next) => {
        const { message, client } = event;
        const body = message.body;
        if (rules.length === 0 || message.fromMe || message.broadcast || !body) return next();
        if (message.isChannel || message.isStatus) return next();
        const lower = body.toLowerCase();
        const isGroup = message.isGroup;
        let rule: CompiledRule | undefined;
        for (const r of rules) {
          const scope = r.rule.scope;
          if (scope !== 'any' && (scope === 'group') !== isGroup) continue;
          if (r.chats && !r.chats.has(message.chatId)) continue;
          if (r.test(body, lower)) {
            rule = r;
            break;
          }
        }
        if (!rule) return next();
        const key = `${rule.index}|${client.name}|${message.chatId}`;
        const now = Date.now();
        if ((cooldowns.get(key) ?? 0) > now) {
          ctx.log.debug(
            { chat: message.chatId, rule: rule.index },
            'auto-reply: rule %d cooling down',
            rule.index,
          );
          return next();
        }
        if (rule.cooldownMs > 0) {
          cooldowns.delete(key);
          cooldowns.set(key, now + rule.cooldownMs);
          if (cooldowns.size > COOLDOWN_LIMIT) prune(now);
        }
        return answer(rule, event, next);
      },
      ctx.options.clients ? { clients: ctx.options.clients } : {},
    );
  },
});
