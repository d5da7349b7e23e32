/**
 * What the model reads of a message that carries media (docs/ai.md#images-and-voice-notes): an
 * image as a data URL content part with its caption (`vision: true`, size-limited), a voice note
 * or audio as its transcript from the endpoint's speech-to-text (`transcription: { model }`).
 * Anything else with no text is not understood: the caller sends `mediaMessage`.
 */
import { toFile, type OpenAI } from 'openai';
import type { Message } from '../../src/index.js';
import type { AiOptions } from './options.js';

export interface ImagePart {
  mimetype: string;
  /** Base64 bytes. */
  data: string;
}

/** The person's turn as the model reads it, and as memory keeps it. */
export type TurnText =
  | { kind: 'text'; text: string; image?: ImagePart; remembered: string }
  /** Media the plugin does not read (or too large): the polite `mediaMessage`. */
  | { kind: 'unread' };

const isImage = (m: Message) => m.type === 'image' && !!m.media?.mimetype.startsWith('image/');
const isVoice = (m: Message) => m.type === 'ptt' || m.type === 'audio';
/** Bytes of base64 text (without decoding it). */
const base64Bytes = (data: string) =>
  Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

/**
 * Reads the turn. A transcription that fails or passes the deadline throws (the caller sends the
 * fallback); media too large or not enabled is `unread`.
 */
export async function readTurn(
  message: Message,
  options: AiOptions,
  openai: OpenAI,
  signal: AbortSignal,
): Promise<TurnText> {
  const text = message.body.trim();
  if (message.hasMedia && isImage(message) && options.vision) {
    if ((message.media?.size ?? 0) > options.maxImageBytes) return { kind: 'unread' };
    const media = await message.downloadMedia();
    if (base64Bytes(media.data) > options.maxImageBytes) return { kind: 'unread' };
    return {
      kind: 'text',
      text,
      image: { mimetype: media.mimetype, data: media.data },
      remembered: text ? `[image] ${text}` : '[image]',
    };
  }
  const stt = options.transcription;
  if (message.hasMedia && isVoice(message) && stt) {
    if ((message.media?.size ?? 0) > stt.maxBytes) return { kind: 'unread' };
    const media = await message.downloadMedia();
    if (base64Bytes(media.data) > stt.maxBytes) return { kind: 'unread' };
    const file = await toFile(Buffer.from(media.data, 'base64'), media.filename || 'voice.ogg', {
      type: media.mimetype,
    });
    const result = await openai.audio.transcriptions.create(
      { file, model: stt.model, ...(stt.language ? { language: stt.language } : {}) },
      { signal },
    );
    const heard = result.text.trim();
    return heard ? { kind: 'text', text: heard, remembered: heard } : { kind: 'unread' };
  }
  return text ? { kind: 'text', text, remembered: text } : { kind: 'unread' };
}
