/**
 * The ai plugin's counters in `/metrics` (through the `metrics` privilege, docs/plugins.md#metrics):
 * turns by outcome (refusals by budget, failures, timeouts and handoffs among them), tokens, model
 * calls and tool calls, and the time a turn takes. Labels: the client, never a chat or a text.
 */
import type * as http from '../../src/entries/http.js';

/** How a turn ended. */
export type TurnOutcome =
  'answered' | 'handoff' | 'conversation' | 'budget' | 'failed' | 'timeout' | 'media';

export interface AiMetrics {
  turn(client: string, outcome: TurnOutcome, seconds: number): void;
  usage(client: string, figures: { tokens: number; calls: number; toolCalls: number }): void;
}

export function aiMetrics(metrics: http.PluginMetrics): AiMetrics {
  const turns = metrics.counter({
    name: 'wakit_ai_turns_total',
    help: 'Turns the ai plugin handled, by outcome: answered, handoff, conversation, budget (refused), failed, timeout, media',
    labelNames: ['client', 'outcome'],
  });
  const seconds = metrics.histogram({
    name: 'wakit_ai_turn_seconds',
    help: 'Time of an ai turn, from the message to the answer handed to the queue (model calls and tools)',
    labelNames: ['client'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
  });
  const tokens = metrics.counter({
    name: 'wakit_ai_tokens_total',
    help: 'Tokens the model endpoint reported (prompt + completion)',
    labelNames: ['client'],
  });
  const calls = metrics.counter({
    name: 'wakit_ai_model_calls_total',
    help: 'Calls made to the model endpoint',
    labelNames: ['client'],
  });
  const toolCalls = metrics.counter({
    name: 'wakit_ai_tool_calls_total',
    help: 'Tool calls the model made',
    labelNames: ['client'],
  });
  return {
    turn(client, outcome, s) {
      turns.inc({ client, outcome });
      seconds.observe({ client }, s);
    },
    usage(client, figures) {
      tokens.inc({ client }, figures.tokens);
      calls.inc({ client }, figures.calls);
      toolCalls.inc({ client }, figures.toolCalls);
    },
  };
}
