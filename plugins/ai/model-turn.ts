/**
 * One turn with the model: the system prompt, the chat's memory and the person's text go to the
 * endpoint; tool calls are run and their results sent back, up to `maxToolRounds` rounds (the
 * call after the last round offers no tools, so the model must answer in words). Usage is summed
 * over every call. The deadline's signal aborts the call under way.
 */
import type OpenAI from 'openai';
import { runTool, toWire, type AiTool, type AiToolContext } from './tools.js';
import type { MemoryEntry } from './memory.js';

type Param = OpenAI.Chat.Completions.ChatCompletionMessageParam;

export interface ModelTurnInput {
  openai: OpenAI;
  model: string;
  temperature: number | undefined;
  systemPrompt: string;
  memory: readonly MemoryEntry[];
  text: string;
  /** An image sent with the text (`vision`), as a data URL content part. */
  image?: { mimetype: string; data: string };
  tools: readonly AiTool[];
  maxToolRounds: number;
  context: AiToolContext;
  /** A tool failed (its result tells the model so); for the error sink. */
  toolFailed(name: string, error: unknown): void;
  /** Stop calling the model (the handoff tool ran). */
  stopped(): boolean;
}

export interface ModelTurnResult {
  /** The model's texts of this turn, in order (empty ones left out). */
  texts: string[];
  tokens: number;
  /** Model calls made. */
  calls: number;
  /** Tool calls run. */
  toolCalls: number;
}

export async function modelTurn(input: ModelTurnInput): Promise<ModelTurnResult> {
  const messages: Param[] = [
    { role: 'system', content: input.systemPrompt },
    ...input.memory.map((m): Param => ({ role: m.role, content: m.content })),
    {
      role: 'user',
      content: input.image
        ? [
            ...(input.text ? [{ type: 'text' as const, text: input.text }] : []),
            {
              type: 'image_url' as const,
              image_url: { url: `data:${input.image.mimetype};base64,${input.image.data}` },
            },
          ]
        : input.text,
    },
  ];
  const byName = new Map(input.tools.map((t) => [t.name, t]));
  const wire = toWire(input.tools);
  const result: ModelTurnResult = { texts: [], tokens: 0, calls: 0, toolCalls: 0 };
  for (let round = 0; ; round++) {
    const offerTools = wire.length > 0 && round < input.maxToolRounds;
    const completion = await input.openai.chat.completions.create(
      {
        model: input.model,
        messages,
        ...(input.temperature === undefined ? {} : { temperature: input.temperature }),
        ...(offerTools ? { tools: wire } : {}),
      },
      { signal: input.context.signal },
    );
    result.calls += 1;
    result.tokens += completion.usage?.total_tokens ?? 0;
    const reply = completion.choices[0]?.message;
    if (!reply) return result;
    if (reply.content) result.texts.push(reply.content);
    const calls = (reply.tool_calls ?? []).filter((c) => c.type === 'function');
    if (!offerTools || calls.length === 0) return result;
    messages.push({ role: 'assistant', content: reply.content ?? null, tool_calls: calls });
    for (const call of calls) {
      result.toolCalls += 1;
      let content: string;
      try {
        content = await runTool(byName, call.function.name, call.function.arguments, input.context);
      } catch (error) {
        input.toolFailed(call.function.name, error);
        content = 'error: the tool failed';
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
    if (input.stopped()) return result;
  }
}
