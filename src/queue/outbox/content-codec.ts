import type { OutgoingContent } from '../../client/types.js';

/**
 * Prepared content as JSON for the outbox: media bytes (a `buffer` source) are taken out and
 * stored beside it, so a recovered send does not depend on a file or a caller's memory.
 * A `path` source is read into bytes at accept time by the caller (files may be gone later).
 */
export function encodeContent(content: OutgoingContent): { json: string; media?: Buffer } {
  if (content.kind !== 'text' && content.kind !== 'forward' && 'buffer' in content.source) {
    const { buffer, mimetype } = content.source;
    return { json: JSON.stringify({ ...content, source: { mimetype } }), media: buffer };
  }
  return { json: JSON.stringify(content) };
}

export function decodeContent(json: string, media: Buffer | undefined): OutgoingContent {
  const content = JSON.parse(json) as OutgoingContent;
  if (content.kind !== 'text' && content.kind !== 'forward' && !('url' in content.source)) {
    if (!('path' in content.source) && media) {
      return {
        ...content,
        source: { buffer: media, mimetype: (content.source as { mimetype: string }).mimetype },
      };
    }
  }
  return content;
}
