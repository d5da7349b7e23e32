import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { authSchema } from '../../src/config/schema.js';
import type { RemoteAuthConfig } from '../../src/auth/gcs-store.js';

export const BUCKET = 'wakit-test';

/** A pino logger whose JSON lines are kept in `lines`. */
export function captureLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wakit-gcs-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function remoteConfig(
  dataPath: string,
  overrides: { keepGenerations?: number; lease?: Record<string, unknown> } = {},
): RemoteAuthConfig {
  const parsed = authSchema.parse({
    type: 'remote',
    storage: { projectId: 'test', bucket: BUCKET, path: 'wakit/sessions' },
    dataPath,
    ...(overrides.keepGenerations === undefined
      ? {}
      : { keepGenerations: overrides.keepGenerations }),
    lease: { ttlMs: 1_000, renewMs: 200, retryMs: 100, ...overrides.lease },
  });
  if (parsed.type !== 'remote') throw new Error('unreachable');
  return parsed;
}
