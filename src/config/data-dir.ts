import path from 'node:path';

/** The environment variable naming wakit's data directory (the image sets `/data`). */
export const DATA_DIR_ENV = 'WAKIT_DATA';

const SUBDIRS = { local: 'sessions', remote: 'remote-cache' } as const;

/**
 * The default of `auth.dataPath` when the configuration leaves it out and `WAKIT_DATA` is set:
 * `<WAKIT_DATA>/sessions` (local) or `<WAKIT_DATA>/remote-cache` (remote), absolute (a relative
 * `WAKIT_DATA` is taken from the working directory). Anything else is returned as it is, and
 * a `dataPath` written in the configuration always wins.
 */
export function withDataDirDefault(input: unknown, env: NodeJS.ProcessEnv = process.env): unknown {
  const dataDir = env[DATA_DIR_ENV];
  if (!dataDir || !input || typeof input !== 'object' || Array.isArray(input)) return input;
  const auth = (input as { auth?: unknown }).auth;
  if (!auth || typeof auth !== 'object' || Array.isArray(auth)) return input;
  const { type, dataPath } = auth as { type?: unknown; dataPath?: unknown };
  if (dataPath !== undefined || (type !== 'local' && type !== 'remote')) return input;
  return {
    ...input,
    auth: { ...auth, dataPath: path.resolve(dataDir, SUBDIRS[type]) },
  };
}
