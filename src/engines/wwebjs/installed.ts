/**
 * The versions of whatsapp-web.js and puppeteer installed, read from their package.json files
 * (nothing is imported: `wakit doctor` and health reports use it without loading either).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface InstalledVersions {
  /** null when not installed. */
  whatsappWebJs: string | null;
  /** The puppeteer whatsapp-web.js resolves (its own pinned dependency); null when missing. */
  puppeteer: string | null;
  /** The puppeteer version whatsapp-web.js declares in its package.json. */
  puppeteerWanted: string | null;
}

function readManifest(file: string): { version?: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(file, 'utf8')) as {
    version?: string;
    dependencies?: Record<string, string>;
  };
}

export function installedVersions(from = import.meta.url): InstalledVersions {
  const require = createRequire(from);
  let wwebjsManifest: string;
  try {
    wwebjsManifest = require.resolve('whatsapp-web.js/package.json');
  } catch {
    return { whatsappWebJs: null, puppeteer: null, puppeteerWanted: null };
  }
  const wwebjs = readManifest(wwebjsManifest);
  let puppeteer: string | null = null;
  try {
    const fromWwebjs = createRequire(wwebjsManifest);
    puppeteer = readManifest(fromWwebjs.resolve('puppeteer/package.json')).version ?? null;
  } catch {
    puppeteer = null;
  }
  return {
    whatsappWebJs: wwebjs.version ?? null,
    puppeteer,
    puppeteerWanted: wwebjs.dependencies?.puppeteer ?? null,
  };
}

/** Where whatsapp-web.js is installed (for messages), or null. */
export function wwebjsDirectory(from = import.meta.url): string | null {
  try {
    return path.dirname(createRequire(from).resolve('whatsapp-web.js/package.json'));
  } catch {
    return null; // not reported: not installed is the answer
  }
}
