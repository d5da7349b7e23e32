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
 * stdout; colours only on a terminal (never escape codes in a file or pipe; NO_COLOR turns them off).
 */
export function createLogger(config: LogConfig): Logger {
  const options = {
    level: config.level,
    base: { app: 'wakit' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  if (!config.pretty) return pino(options);
  return pino(
    options,
    pretty({
      colorize: process.stdout.isTTY === true && !process.env.NO_COLOR,
      singleLine: true,
      translateTime: 'HH:MM:ss.l',
      ignore: 'pid,hostname,app',
      sync: true,
    }),
  );
}
