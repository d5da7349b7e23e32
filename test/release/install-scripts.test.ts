import { expect } from 'chai';
import { readFileSync } from 'node:fs';

/**
 * What `npm install wakitjs` runs on a user's machine: the install scripts (preinstall,
 * install, postinstall) of the packages it brings, read from the lockfile. Each one is here
 * on purpose; one that phones home (`@scarf/scarf`, which swagger-ui-dist pulls in) is not.
 */
const ALLOWED: Record<string, string> = {
  'better-sqlite3': 'builds its native addon (or fetches the prebuilt one for this Node)',
  puppeteer: 'would fetch a browser; .puppeteerrc.cjs and the docs set skipDownload',
  esbuild: "tsx's bundler: installs the platform binary shipped in a registry package",
};

interface LockEntry {
  version?: string;
  dev?: boolean;
  hasInstallScript?: boolean;
}

function installScriptsOfProductionTree(): string[] {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  return Object.entries(lock.packages)
    .filter(([where, entry]) => where !== '' && entry.hasInstallScript && !entry.dev)
    .map(([where]) => where.split('node_modules/').at(-1) ?? where);
}

describe('release: install scripts a user runs with `npm install wakitjs`', () => {
  it('are only the allowed ones, and none phones home (no @scarf/scarf)', () => {
    const scripts = installScriptsOfProductionTree();
    expect(scripts).to.not.include('@scarf/scarf');
    for (const name of scripts) {
      expect(ALLOWED, `${name} runs an install script on every user's machine`).to.have.property(
        name,
      );
    }
  });

  it('the lockfile has no @scarf/scarf anywhere, nor swagger-ui-dist (which depends on it)', () => {
    const lock = readFileSync('package-lock.json', 'utf8');
    expect(lock).to.not.include('node_modules/@scarf/scarf');
    expect(lock).to.not.include('node_modules/swagger-ui-dist');
  });
});
