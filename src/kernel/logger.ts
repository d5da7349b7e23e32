import { pino, type Logger } from 'pino';
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

export function createLogger(config: LogConfig): Logger {
  return pino({
    level: config.level,
    base: { app: 'wakit' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(config.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: {
              colorize: true,
              singleLine: true,
              translateTime: 'HH:MM:ss.l',
              ignore: 'pid,hostname,app',
            },
          },
        }
      : {}),
  });
}
