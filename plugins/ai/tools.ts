/**
 * Tools the model may call. A tool is a name, a description, a zod schema for its arguments and a
 * function; the schema is sent to the endpoint as JSON Schema and checks the model's arguments
 * before the function runs (bad arguments go back to the model as the tool's result).
 */
import type OpenAI from 'openai';
import { z, type BotClient, type Message } from '../../src/index.js';

/** What a tool's `run` gets besides its arguments. */
export interface AiToolContext {
  client: BotClient;
  /** The chat of the turn. */
  chatId: string;
  /** The message of the turn; absent when a conversation asked (`ai.ask`). */
  message?: Message;
  /** Aborted at the turn's deadline. */
  signal: AbortSignal;
}

export interface AiTool<S extends z.ZodType = z.ZodType> {
  /** Letters, digits, `_` and `-` (what the endpoints accept), at most 64. */
  name: string;
  description: string;
  parameters: S;
  /** Its result goes back to the model (a string as is, anything else as JSON). */
  run(args: z.output<S>, context: AiToolContext): unknown;
}

/** Types a tool's `run` by its schema. */
export function defineAiTool<S extends z.ZodType>(tool: AiTool<S>): AiTool<S> {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) {
    throw new Error(`ai tool name ${JSON.stringify(tool.name)}: use letters, digits, _ and -`);
  }
  return tool;
}

/** The tools in the endpoint's wire form. */
export function toWire(tools: readonly AiTool[]): OpenAI.Chat.Completions.ChatCompletionTool[] {
  return tools.map((tool) => {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.parameters) as Record<
      string,
      unknown
    >;
    return {
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters },
    };
  });
}

/** Runs one tool call; every failure becomes a result the model reads, never a throw. */
export async function runTool(
  tools: ReadonlyMap<string, AiTool>,
  name: string,
  rawArgs: string,
  context: AiToolContext,
): Promise<string> {
  const tool = tools.get(name);
  if (!tool) return `error: no tool named ${name}`;
  let json: unknown;
  try {
    json = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
  } catch {
    // not reported: the model wrote arguments that are not JSON; it reads this and may retry
    return 'error: the arguments are not JSON';
  }
  const parsed = tool.parameters.safeParse(json);
  if (!parsed.success) return `error: invalid arguments: ${z.prettifyError(parsed.error)}`;
  const result = await tool.run(parsed.data, context);
  return typeof result === 'string' ? result : JSON.stringify(result ?? null);
}
