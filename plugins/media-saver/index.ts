/**
 * media-saver: saves received media under `dir` with a JSON sidecar (sender, chat, timestamp,
 * caption, mimetype, size, sha256). Paths are built only from sanitised parts, the extension comes
 * from the MIME type only, a file is never overwritten (a taken name gets a `-1`, `-2`... suffix),
 * a message is never saved twice, oversized media is skipped with a log line.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chatIdSchema, definePlugin, z, type Message } from '../../src/index.js';
import { buildSafePath, templateProblem, type PathValues } from './safe-path.js';
import { extensionForMime } from './extension.js';
import { claimFile, fileExists, writeAtomic } from './write-file.js';

export const mediaSaverOptions = z
  .object({
    /** Directory media is saved in (relative to the config file). */
    dir: z.string().min(1),
    /** Only media from these chats. */
    chats: z.array(chatIdSchema).optional(),
    /** Only these message types (`image`, `video`, `audio`, `ptt`, `document`, `sticker`). */
    types: z.array(z.string().min(1)).optional(),
    /** Larger media is skipped (default: `media.maxBytes` of the config). */
    maxBytes: z.number().int().min(1).optional(),
    /** File path inside `dir`; placeholders {date} {time} {chat} {sender} {id} {ext} {type} {filename} {client}. */
    path: z
      .string()
      .min(1)
      .default('{date}/{chat}/{id}.{ext}')
      .superRefine((template, ctx) => {
        const problem = templateProblem(template);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    /** Only on these clients (names); all when absent. */
    clients: z.array(z.string()).optional(),
  })
  .strict();

export type MediaSaverOptions = z.input<typeof mediaSaverOptions>;

const DONE_LIMIT = 10_000;
/** A taken file name gets a suffix `-1` ... `-MAX_SUFFIX`; beyond, the media is not saved (logged). */
const MAX_SUFFIX = 999;

/** `a/report.pdf` → `a/report-2.pdf` (n = 0 is the name itself). */
function candidate(file: string, n: number): string {
  if (n === 0) return file;
  const { dir, name, ext } = path.parse(file);
  return path.join(dir, `${name}-${n}${ext}`);
}

/** The id and client recorded in the sidecar of `file`, if it has one. */
async function savedMessage(file: string): Promise<string | undefined> {
  try {
    const sidecar = JSON.parse(await readFile(`${file}.json`, 'utf8')) as {
      id?: unknown;
      client?: unknown;
    };
    return `${String(sidecar.client)}|${String(sidecar.id)}`;
  } catch {
    return undefined; // not reported: a sidecar that does not parse is no record (the answer)
  }
}

export function pathValues(message: Message): PathValues {
  const iso = new Date(message.timestamp * 1000).toISOString();
  const filename = message.media?.filename ?? '';
  return {
    date: iso.slice(0, 10),
    time: iso.slice(11, 19).replaceAll(':', '-'),
    chat: message.chatId,
    sender: message.sender.id,
    id: message.id,
    ext: extensionForMime(message.media?.mimetype),
    type: message.type,
    filename: filename ? path.parse(filename.replaceAll('\\', '/')).name : message.id,
    client: message.client,
  };
}

export default definePlugin({
  name: 'media-saver',
  version: '1.0.0',
  options: mediaSaverOptions,
  setup(ctx) {
    const { options } = ctx;
    const dir = path.resolve(ctx.env.baseDir, options.dir);
    const maxBytes = options.maxBytes ?? ctx.env.config.media.maxBytes;
    const chats = options.chats ? new Set(options.chats) : undefined;
    const types = options.types ? new Set(options.types) : undefined;
    const inFlight = new Set<string>();
    const done = new Set<string>();
    const remember = (key: string) => {
      done.add(key);
      if (done.size > DONE_LIMIT) done.delete(done.values().next().value as string);
    };

    async function save(message: Message): Promise<void> {
      const key = `${message.client}|${message.id}`;
      if (done.has(key) || inFlight.has(key)) return;
      inFlight.add(key);
      try {
        const file = buildSafePath(dir, options.path, pathValues(message));
        // saved before (a re-delivery, or a restart on the same directory)?
        for (let n = 0; n <= MAX_SUFFIX; n++) {
          const name = candidate(file, n);
          const owner = await savedMessage(name);
          if (owner === key) {
            remember(key);
            return;
          }
          if (owner === undefined && !(await fileExists(name))) break;
        }
        const announced = message.media?.size;
        if (announced !== undefined && announced > maxBytes) {
          ctx.log.info(
            { messageId: message.id, size: announced, maxBytes },
            'media-saver: skipped message %s: %d bytes is over maxBytes %d',
            message.id,
            announced,
            maxBytes,
          );
          remember(key);
          return;
        }
        const media = await message.downloadMedia();
        const data = Buffer.from(media.data, 'base64');
        if (data.length > maxBytes) {
          ctx.log.info(
            { messageId: message.id, size: data.length, maxBytes },
            'media-saver: skipped message %s: %d bytes is over maxBytes %d',
            message.id,
            data.length,
            maxBytes,
          );
          remember(key);
          return;
        }
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        // never overwrite: the first free name of file, file-1, file-2... is claimed atomically
        let saved: string | undefined;
        for (let n = 0; n <= MAX_SUFFIX && !saved; n++) {
          if (await claimFile(candidate(file, n), data)) saved = candidate(file, n);
        }
        if (!saved) {
          ctx.log.warn(
            { messageId: message.id, file },
            'media-saver: could not save message %s: %s and %d suffixed names are taken',
            message.id,
            path.relative(dir, file),
            MAX_SUFFIX,
          );
          remember(key);
          return;
        }
        const sidecar = {
          id: message.id,
          client: message.client,
          chat: message.chatId,
          sender: message.sender.id,
          senderLid: message.sender.lid ?? null,
          senderPhone: message.sender.phone ?? null,
          senderName: message.notifyName ?? null,
          timestamp: message.timestamp,
          type: message.type,
          caption: message.body || null,
          mimetype: media.mimetype,
          filename: media.filename || null,
          size: data.length,
          sha256: createHash('sha256').update(data).digest('hex'),
          file: path.relative(dir, saved).split(path.sep).join('/'),
          savedAt: new Date().toISOString(),
        };
        await writeAtomic(`${saved}.json`, `${JSON.stringify(sidecar, null, 2)}\n`);
        remember(key);
        ctx.log.debug({ messageId: message.id, file: saved }, 'media-saver: saved %s', saved);
      } finally {
        inFlight.delete(key);
      }
    }

    ctx.on(
      'message',
      (event, next) => {
        const { message } = event;
        const wanted =
          message.hasMedia &&
          !message.fromMe &&
          (!chats || chats.has(message.chatId)) &&
          (!types || types.has(message.type));
        if (!wanted) return next();
        return next().then(() => save(message));
      },
      options.clients ? { clients: options.clients } : {},
    );
  },
});
