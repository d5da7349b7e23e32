import { WakitError } from '../../errors/index.js';
import type { MediaFile } from '../types.js';
import type { LocationData, PollData } from '../ports/messages.js';
import type { SimMediaContent, SimSendOptions } from './types.js';
import { memberId } from './group.js';
import { LID_SUFFIX } from './ids.js';

/** What a message carries, whoever sends it. */
export interface SimPayload {
  type: string;
  body: string;
  caption?: string;
  media?: MediaFile;
  isForwarded: boolean;
  quotedMessageId?: string;
  mentionedIds?: readonly string[];
  location?: LocationData;
  poll?: PollData;
  vcards?: readonly string[];
}

/** Media bytes from a Buffer, bytes or base64 text; anything else (or bad base64) is refused. */
function mediaBytes(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (data instanceof Uint8Array) return Buffer.from(data);
  if (typeof data === 'string' && data.length > 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
    return Buffer.from(data, 'base64');
  }
  throw new WakitError(
    'VALIDATION_FAILED',
    'phone.send({ data }) takes a Buffer, bytes or base64 text (as downloadMedia() returns)',
  );
}

function mediaType(content: SimMediaContent): string {
  if (content.type) return content.type;
  const major = content.mimetype.split('/')[0];
  return major === 'image' || major === 'video' || major === 'audio' ? major : 'document';
}

/** Mentions as chat ids: `@lid` ids as given, numbers and `@c.us` ids as `<digits>@c.us`. */
function mentionIds(mentions: readonly string[] | undefined): string[] | undefined {
  if (mentions !== undefined && !Array.isArray(mentions)) {
    throw new WakitError('VALIDATION_FAILED', 'phone.send({ mentions }) takes an array of ids');
  }
  return mentions?.map((id) =>
    String(id).endsWith(LID_SUFFIX) ? String(id) : memberId(String(id)),
  );
}

/** What a phone's `send` of a text or of media carries. */
export function phonePayload(content: string | SimMediaContent, opts: SimSendOptions): SimPayload {
  const { quotedMessageId } = opts;
  const mentionedIds = mentionIds(opts.mentions);
  if (typeof content === 'string') {
    return { type: 'chat', body: content, isForwarded: false, quotedMessageId, mentionedIds };
  }
  return {
    type: mediaType(content),
    body: content.caption ?? '',
    caption: content.caption,
    media: {
      data: mediaBytes(content.data),
      mimetype: content.mimetype,
      filename: content.filename,
    },
    isForwarded: false,
    quotedMessageId,
    mentionedIds,
  };
}
