import type { OutgoingContent } from '../../client/types.js';

/**
 * Prepared content as JSON for the outbox: media bytes (a `buffer` source) are taken out and
 * stored beside it, so a recovered send does not depend on a file or a caller's memory.
 * A `path` source is read into bytes at accept time by the caller (files may be gone later).
 */
export function encodeContent(content: OutgoingContent): { json: string; media?: Buffer } {
  if ('source' in content && 'buffer' in content.source) {
    const { buffer, mimetype } = content.source;
    return { json: JSON.stringify({ ...content, source: { mimetype } }), media: buffer };
  }
  return { json: JSON.stringify(content) };
}

/** The content back from the outbox; `loadMedia` is called only when it had bytes stored. */
export async function decodeContent(
  json: string,
  loadMedia: () => Promise<Buffer | undefined>,
): Promise<OutgoingContent> {
  const content = JSON.parse(json) as OutgoingContent;
  // Text, forwards, locations, contacts, polls and actions are plain JSON.
  if (!('source' in content)) return content;
  const source = content.source as { url?: string; path?: string; mimetype?: string };
  if (source.url !== undefined || source.path !== undefined) return content;
  return {
    ...content,
    source: { buffer: (await loadMedia()) ?? Buffer.alloc(0), mimetype: source.mimetype ?? '' },
  };
}
