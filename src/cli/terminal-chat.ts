import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { mimeFromFilename } from '../client/media/mime.js';
import { isWakitError } from '../errors/index.js';
import type { Sdk } from '../sdk.js';
import type { CliIo } from './io.js';

/** The simulated contact `wakit dev` lets you play in the terminal (the README's examples write to it). */
export const DEV_CONTACT = '15550001111';

export interface TerminalChat {
  stop(): void;
}

/**
 * `wakit dev`'s terminal chat: every line read from `input` is sent to the bot's first client by
 * the simulated contact DEV_CONTACT ("You"); `/image <file> [caption]` sends a picture from a
 * file; what the bot sends to that contact is printed (line breaks kept).
 */
export function startTerminalChat(
  sdk: Sdk,
  clientName: string,
  io: CliIo,
  input: Readable,
  baseDir: string,
): TerminalChat {
  const phone = sdk.simulator.phone(DEV_CONTACT, { pushname: 'You' });
  const client = sdk.client(clientName);
  let stopped = false;
  const seen = new Set(phone.inbox.map((m) => m.id));

  const show = (from: string, body: string) =>
    io.out(
      body.includes('\n') ? `${from}:\n  ${body.split('\n').join('\n  ')}` : `${from}: ${body}`,
    );

  void (async () => {
    while (!stopped) {
      try {
        const message = await phone.waitForMessage((m) => !seen.has(m.id), 30_000);
        seen.add(message.id);
        const media = message.media ? `[${message.type} ${message.media.mimetype}] ` : '';
        show(`[${clientName} → you]`, `${media}${message.body}`);
      } catch (error) {
        if (!isWakitError(error, 'TIMEOUT')) throw error;
      }
    }
  })();

  const lines = createInterface({ input, terminal: false });
  lines.on('line', (line) => {
    void (async () => {
      const text = line.trim();
      if (!text || stopped) return;
      const me = client.info().me;
      if (!me) {
        io.err(`${clientName} is not linked yet: wait for its READY line.`);
        return;
      }
      try {
        const image = /^\/image\s+(\S+)(?:\s+([\s\S]*))?$/.exec(text);
        if (image) {
          const file = path.resolve(baseDir, image[1] ?? '');
          const mimetype = mimeFromFilename(file) ?? 'application/octet-stream';
          await phone.send(me.id, {
            data: await readFile(file),
            mimetype,
            filename: path.basename(file),
            ...(image[2] ? { caption: image[2] } : {}),
          });
          io.out(`[you → ${clientName}] [${mimetype}] ${path.basename(file)}`);
        } else {
          await phone.send(me.id, line.replaceAll('\\n', '\n'));
        }
      } catch (error) {
        io.err(`could not send: ${(error as Error).message}`);
      }
    })();
  });
  return {
    stop() {
      stopped = true;
      lines.close();
    },
  };
}

/** What `wakit dev` prints once the first client is READY. */
export function chatHelp(clientName: string, botId: string, port: number | undefined): string {
  return [
    '',
    `Chat with ${clientName} here: type a message and press Enter; you are the simulated contact ${DEV_CONTACT} ("You").`,
    '  /image ./photo.jpg a caption   sends an image from a file; \\n in a line is a line break',
    ...(port !== undefined
      ? [
          `  REST: curl -X POST http://localhost:${port}/api/v1/messages -H "Authorization: Bearer $WAKIT_REST_TOKEN" \\`,
          `          -H 'Content-Type: application/json' -d '{"chatId":"${DEV_CONTACT}@c.us","content":"hello"}'`,
          `  Dashboard: http://localhost:${port}/`,
        ]
      : []),
    `  The bot is ${botId}. Ctrl+C stops.`,
    '',
  ].join('\n');
}
