import { MEDIA_KINDS, type MediaKind } from '../client/types.js';
import { WakitError } from '../errors/index.js';
import type { PluginSendOptions, SendContent } from './types.js';

/** Maps `ctx.send` content onto `client.enqueue(kind, input)`: a string is text, an object media. */
export function toEnqueueInput(
  chatId: string,
  content: SendContent,
  options: PluginSendOptions = {},
): { kind: 'text' | MediaKind; input: Record<string, unknown> } {
  if (typeof content === 'string') {
    return {
      kind: 'text',
      input: { to: chatId, text: content, ...(options.text ? { options: options.text } : {}) },
    };
  }
  if (!content || typeof content !== 'object') {
    throw new WakitError(
      'VALIDATION_FAILED',
      'content must be a string or a media object { type, url | path | buffer, ... }',
    );
  }
  const { type, ...rest } = content;
  if (!MEDIA_KINDS.includes(type)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `content.type must be one of ${MEDIA_KINDS.join(', ')}`,
      {
        issues: [{ path: 'content.type', message: `must be one of ${MEDIA_KINDS.join(', ')}` }],
      },
    );
  }
  const media = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return { kind: type, input: { to: chatId, [type]: media } };
}
