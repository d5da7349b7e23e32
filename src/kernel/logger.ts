import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogConfig } from '../config/schema.js';

/** Paths pino removes from every log line: secrets and session data never reach a log. */
export const REDACT_PATHS = [
  'token',
  'tokens',
  'secret',
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'session',
  'sessionData',
  'password',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.session',
];

/**
 * The SDK's logger: JSON lines, or with `pretty` human-readable lines. Pretty lines are formatted
 * in this thread and written synchronously, so they keep their order with the CLI's own lines on
 * stdout (or stderr: `fd`); colours only on a terminal (never escape codes in a file or pipe; NO_COLOR turns them off).
 */
export function createLogger(config: LogConfig, fd: 1 | 2 = 1): Logger {
  const options = {
    level: config.level,
    base: { app: 'wakit' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  // `wakit mcp` logs to stderr (fd 2): its stdout is the protocol channel
  if (!config.pretty) return fd === 1 ? pino(options) : pino(options, pino.destination(fd));
  return pino(
    options,
    pretty({
      colorize:
        (fd === 1 ? process.stdout : process.stderr).isTTY === true && !process.env.NO_COLOR,
      destination: fd,
      singleLine: true,
      translateTime: 'HH:MM:ss.l',
      ignore: 'pid,hostname,app',
      sync: true,
    }),
  );
}
