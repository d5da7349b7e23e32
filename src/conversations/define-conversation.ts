import { WakitError } from '../errors/index.js';
import type { ConversationDefinition } from './types.js';
import { turnOptionProblem } from './turn-option.js';

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/**
 * A conversation: plain async code that asks, waits and remembers (docs/conversations.md). Pass
 * it to `ctx.conversations.define()` in a plugin's setup. The definition is checked now.
 */
export function defineConversation<S = Record<string, unknown>>(
  definition: ConversationDefinition<S>,
): ConversationDefinition<S> {
  const problems: string[] = [];
  if (typeof definition?.name !== 'string' || !NAME.test(definition.name)) {
    problems.push('name must be 1-64 letters, digits, "-" or "_"');
  }
  if (typeof definition?.run !== 'function') problems.push('run must be a function');
  const version = definition?.version;
  if (version !== undefined && (!Number.isInteger(version) || version < 1)) {
    problems.push('version must be a whole number from 1');
  }
  const seconds = definition?.timeout?.seconds;
  if (seconds !== undefined && !(seconds > 0)) problems.push('timeout.seconds must be above 0');
  const turns = turnOptionProblem(definition?.turns);
  if (turns) problems.push(turns);
  if (problems.length > 0) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `Conversation ${String(definition?.name)}: ${problems.join('; ')}`,
      {
        details: { conversation: definition?.name, problems },
      },
    );
  }
  return Object.freeze({ ...definition });
}
