import path from 'node:path';

/** The media types WhatsApp handles, by file extension. */
const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  '3gp': 'video/3gpp',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  amr: 'audio/amr',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const EXTENSION_BY_TYPE: Record<string, string> = Object.fromEntries(
  Object.entries(BY_EXTENSION)
    .reverse()
    .map(([ext, type]) => [type, ext]),
);

export const DEFAULT_MIMETYPE = 'application/octet-stream';

export function mimeFromFilename(name: string | undefined): string | undefined {
  if (!name) return undefined;
  return BY_EXTENSION[path.extname(name).slice(1).toLowerCase()];
}

/** Types that say nothing about the bytes (`binary/octet-stream` is S3's default). */
const GENERIC = new Set([DEFAULT_MIMETYPE, 'binary/octet-stream']);

/** `image/png; charset=x` → `image/png`; generic types are treated as unknown. */
export function mimeFromHeader(header: string | undefined): string | undefined {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  if (!type || GENERIC.has(type) || !type.includes('/')) return undefined;
  return type;
}

/** A file extension for a MIME type (`image/jpeg` → `jpg`), `bin` when unknown. */
export function extensionFor(mimetype: string): string {
  return EXTENSION_BY_TYPE[mimetype.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'bin';
}
