/**
 * The model's memory of a chat, kept in the chat state (docs/conversations.md#chat-state) under the
 * key `ai`: the last turns (bounded), the chat's token count of the day, the last handoff's reason.
 * The state is durable (SQLite, or Redis in a fleet: shared by every node) and erased with the
 * rest of the chat's state by `sdk.conversations.eraseState`. Other keys of the chat's state are
 * kept as they are.
 */
import { z } from '../../src/index.js';

const entrySchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
});

const aiStateSchema = z.object({
  turns: z.array(entrySchema).default([]),
  /** UTC day (`YYYY-MM-DD`) of `tokens`. */
  day: z.string().default(''),
  tokens: z.number().default(0),
  handoff: z.object({ reason: z.string(), at: z.number() }).optional(),
});

export type MemoryEntry = z.output<typeof entrySchema>;
export type AiChatState = z.output<typeof aiStateSchema>;

/** The chat state handle as `ctx.conversations.state(message)` gives it (no schema). */
export interface StateHandle {
  get(): Promise<Record<string, unknown>>;
  update(
    fn: (value: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
}

export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Reads the `ai` part of a chat's state; a value that does not fit reads as empty. */
export function readAi(value: Record<string, unknown>): AiChatState {
  const parsed = aiStateSchema.safeParse(value.ai ?? {});
  return parsed.success ? parsed.data : aiStateSchema.parse({});
}

/** The chat's tokens spent today. */
export function tokensToday(state: AiChatState, now: number): number {
  return state.day === utcDay(now) ? state.tokens : 0;
}

export interface TurnRecord {
  user: string;
  assistant?: string;
  tokens: number;
  handoff?: { reason: string; at: number };
}

/** Adds one turn (and its tokens) to the chat's memory, keeping the last `maxTurns`. */
export async function remember(
  state: StateHandle,
  record: TurnRecord,
  limits: { maxTurns: number; maxChars: number; now: number },
): Promise<void> {
  const cut = (text: string) =>
    text.length > limits.maxChars ? `${text.slice(0, limits.maxChars)}…` : text;
  await state.update((value) => {
    const ai = readAi(value);
    const day = utcDay(limits.now);
    const turns: MemoryEntry[] = [...ai.turns, { role: 'user', content: cut(record.user) }];
    if (record.assistant) turns.push({ role: 'assistant', content: cut(record.assistant) });
    // whole turns out first: the oldest user message with its answer
    const kept = limits.maxTurns === 0 ? [] : dropOldest(turns, limits.maxTurns);
    const next: AiChatState = {
      turns: kept,
      day,
      tokens: (ai.day === day ? ai.tokens : 0) + record.tokens,
      ...(record.handoff ? { handoff: record.handoff } : ai.handoff ? { handoff: ai.handoff } : {}),
    };
    return { ...value, ai: next };
  });
}

/** Keeps the entries of the last `maxTurns` user messages (a turn starts at a user entry). */
function dropOldest(entries: MemoryEntry[], maxTurns: number): MemoryEntry[] {
  let users = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]?.role === 'user' && ++users === maxTurns) return entries.slice(i);
  }
  return entries;
}
