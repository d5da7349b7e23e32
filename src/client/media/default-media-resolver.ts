import { open } from 'node:fs/promises';
import path from 'node:path';
import { WakitError } from '../../errors/index.js';
import type { MediaConfig } from '../../config/schema.js';
import type { MediaFile } from '../types.js';
import type { MediaResolver, MediaSourceSpec } from './media-resolver.js';
import { DEFAULT_MIMETYPE, extensionFor, mimeFromFilename, mimeFromHeader } from './mime.js';
import { checkUrlAddress, safeFetch } from './safe-fetch.js';

function tooLarge(what: string, maxBytes: number): WakitError {
  return new WakitError(
    'MEDIA_TOO_LARGE',
    `${what} is larger than media.maxBytes (${maxBytes} bytes)`,
    {
      details: { maxBytes },
    },
  );
}

async function readCapped(file: string, maxBytes: number): Promise<Buffer> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new WakitError(
      'MEDIA_DOWNLOAD_FAILED',
      `Cannot read media file ${path.basename(file)}: ${code}`,
      {
        details: { reason: code },
        cause: error,
      },
    );
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw tooLarge(`File ${path.basename(file)}`, maxBytes);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The declared type of a `url` or `path` source (`mimetype`), checked against what the download's
 * `Content-Type` or the file name says: the declared type wins within one family (`image/png`
 * declared, `image/jpeg` found), another family is MEDIA_TYPE_MISMATCH; nothing found, it stands.
 */
function declaredType(declared: string, found: string | undefined, what: string): string {
  const family = (type: string) => type.split('/')[0]?.toLowerCase();
  if (found !== undefined && family(found) !== family(declared)) {
    throw new WakitError(
      'MEDIA_TYPE_MISMATCH',
      `${what} is ${found}, not ${declared} as declared by mimetype`,
      { details: { declared, found } },
    );
  }
  return declared;
}

/** Media from a URL (guarded download), a local path (SDK only) or a buffer, capped by `media.maxBytes`. */
export class DefaultMediaResolver implements MediaResolver {
  constructor(private readonly config: MediaConfig) {}

  check(source: MediaSourceSpec): void {
    if ('url' in source) checkUrlAddress(source.url, this.config);
  }

  async resolve(source: MediaSourceSpec, filename?: string): Promise<MediaFile> {
    if ('buffer' in source) {
      if (source.buffer.length > this.config.maxBytes)
        throw tooLarge('Buffer', this.config.maxBytes);
      return this.named({ data: source.buffer, mimetype: source.mimetype }, filename);
    }
    if ('path' in source) {
      const data = await readCapped(source.path, this.config.maxBytes);
      const name = filename ?? path.basename(source.path);
      const found = mimeFromFilename(path.basename(source.path));
      const mimetype = source.mimetype
        ? declaredType(source.mimetype, found, `File ${path.basename(source.path)}`)
        : (mimeFromFilename(name) ?? DEFAULT_MIMETYPE);
      return this.named({ data, mimetype }, name);
    }
    const body = await safeFetch(source.url, this.config);
    const urlName =
      decodeURIComponent(path.posix.basename(new URL(body.url).pathname)) || undefined;
    const name = filename ?? urlName;
    const found = mimeFromHeader(body.contentType) ?? mimeFromFilename(urlName);
    const mimetype = source.mimetype
      ? declaredType(source.mimetype, found, 'The download')
      : (mimeFromHeader(body.contentType) ?? mimeFromFilename(name) ?? DEFAULT_MIMETYPE);
    return this.named({ data: body.data, mimetype }, name);
  }

  private named(file: { data: Buffer; mimetype: string }, name: string | undefined): MediaFile {
    const safe = name?.replace(/[/\\\0]/g, '_').slice(0, 200);
    return { ...file, filename: safe || `file.${extensionFor(file.mimetype)}` };
  }
}
