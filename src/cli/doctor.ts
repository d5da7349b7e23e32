/**
 * `wakit doctor`: whether this machine can run a config. Machine checks first (Node, Chromium,
 * whatsapp-web.js and puppeteer, the data directory, the outbox's native module, Redis and GCS
 * when configured), then with `--client` a linked client's WhatsApp Web build and compat probes.
 * Exit code 1 when anything blocks; warnings are printed but do not fail.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfigFile } from '../config/load.js';
import { isWakitError } from '../errors/index.js';
import {
  checkChromium,
  checkDataDir,
  checkGcs,
  checkLibraries,
  checkNode,
  checkOutbox,
  checkRedis,
  type CheckResult,
} from './doctor-checks.js';
import { checkLinkedClient } from './doctor-client.js';
import { loadDotEnv } from './env.js';
import type { CliIo } from './io.js';
import { packageRoot } from './paths.js';

export interface DoctorOptions {
  config: string;
  /** A linked client to probe (its build and compat fixes). */
  client?: string;
  /** Time the client may take to become READY. */
  timeoutMs?: number;
}

const MARK: Record<CheckResult['level'], string> = { ok: '✔', warn: '!', blocker: '✖', skip: '–' };

export async function runDoctor(options: DoctorOptions, io: CliIo): Promise<number> {
  loadDotEnv(options.config);
  let loaded;
  try {
    loaded = await loadConfigFile(options.config);
  } catch (error) {
    if (!isWakitError(error)) throw error;
    io.err(`✖ config: ${error.message.split('\n')[0]}`);
    io.err('    fix: wakit config check -c <file> lists every problem');
    return 1;
  }
  const { config, baseDir, file } = loaded;
  io.out(`wakit doctor: can this machine run ${file}?`);
  const engines = (
    JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as {
      engines?: { node?: string };
    }
  ).engines;
  const results: CheckResult[] = [
    checkNode(engines?.node ?? '>=20'),
    await checkChromium(config.engine),
    ...checkLibraries(config.engine),
    await checkDataDir(path.resolve(baseDir, config.auth.dataPath)),
    await checkOutbox(config),
    config.cluster
      ? await checkRedis(config.cluster.url)
      : { level: 'skip', title: 'Redis', detail: 'no cluster configured' },
    await checkGcs(config),
  ];
  print(results, io);
  let blocked = results.some((r) => r.level === 'blocker');
  if (options.client) {
    if (blocked) {
      io.out(`– client ${options.client}: not started (fix the problems above first)`);
    } else {
      const client = await checkLinkedClient(
        config,
        baseDir,
        options.client,
        options.timeoutMs ?? 60_000,
      );
      print(client, io);
      blocked = client.some((r) => r.level === 'blocker');
    }
  } else {
    io.out('– linked client: add --client <name> to check its WhatsApp Web build and compat fixes');
  }
  const warnings = results.filter((r) => r.level === 'warn').length;
  io.out(
    blocked
      ? '✖ something blocks this config: fix the problems marked ✖'
      : `✔ this machine can run this config${warnings > 0 ? ` (${warnings} warning(s))` : ''}`,
  );
  return blocked ? 1 : 0;
}

function print(results: readonly CheckResult[], io: CliIo): void {
  for (const result of results) {
    io.out(`${MARK[result.level]} ${result.title}: ${result.detail}`);
    if (result.fix) io.out(`    fix: ${result.fix}`);
  }
}
