import type { MediaFile, OutgoingContent } from '../types.js';

export type MediaSourceSpec = Extract<OutgoingContent, { source: unknown }>['source'];

/** Turns a validated media source (url, path or buffer) into bytes with a MIME type. */
export interface MediaResolver {
  resolve(source: MediaSourceSpec, filename?: string): Promise<MediaFile>;
  /** Refuses a source that can never resolve (a URL the address policy blocks) before it is queued. */
  check?(source: MediaSourceSpec): void;
}
