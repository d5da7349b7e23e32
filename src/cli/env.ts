import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Loads `.env` beside the config file into `process.env` (variables already set win), so
 * `${WAKIT_REST_TOKEN}` in bot.config.json works without exporting it by hand.
 */
export function loadDotEnv(configFile: string): string | undefined {
  const file = path.join(path.dirname(path.resolve(configFile)), '.env');
  if (!existsSync(file)) return undefined;
  const before = { ...process.env };
  process.loadEnvFile(file);
  for (const [key, value] of Object.entries(before)) process.env[key] = value;
  return file;
}
