/**
 * The quick test lane (`npm run test:quick`, CONTRIBUTING.md "Tests"): every test file that needs
 * no browser, no Redis, no podman and starts no process. A file is left out when it, or a module
 * of test/ it imports (followed to the end), names one of the markers below; the reason is the
 * first marker found; a few more are left out as measured slow (`SLOW`). `npx tsx
 * scripts/quick-lane.ts` lists what is left out and why.
 * `.mocharc.quick.cjs` loads this file (through tsx) to hand mocha the lane's files.
 */
import fs from 'node:fs';
import path from 'node:path';

export type HeavyReason = 'browser' | 'redis' | 'podman' | 'process' | 'slow';

/**
 * Files that need none of the above but whose tests took 1.4 s or more in a run of the lane
 * (28 Nov 2026, this 2-core machine shared, load about 5); test/architecture/ stays in the lane
 * (the house's checks belong in the inner loop). Measure again with mocha's json reporter
 * (`npm run test:quick -- --reporter json`) when the lane grows past two minutes.
 */
export const SLOW = new Set([
  'test/auth/lease.test.ts',
  'test/plugins/rest/openapi-sweep.test.ts',
  'test/plugins/rest/security.test.ts',
  'test/plugins/rest/events.test.ts',
  'test/governor/restriction-signal.test.ts',
  'test/plugins/rest/limits.test.ts',
  'test/plugins/rest/health.test.ts',
  'test/plugins/rest/outbox-routes.test.ts',
  'test/engines/wwebjs-client-reconnect.test.ts',
  'test/plugins/forwarder-loops.test.ts',
  'test/plugins/watchdog.test.ts',
  'test/plugins/rest/webhooks-metrics.test.ts',
  'test/auth/gcs-store.test.ts',
  'test/engines/wwebjs-engine.test.ts',
  'test/conversations/conversation-model.test.ts',
  'test/plugins/rest/events-restart.test.ts',
]);

/** What makes a test file slow or dependent on the machine, by what its code names. */
export const MARKERS: readonly { reason: HeavyReason; pattern: RegExp }[] = [
  { reason: 'browser', pattern: /from '(?:playwright-core|puppeteer)'|helpers\/chromium\.js/ },
  { reason: 'redis', pattern: /from 'ioredis'|redis-server/ },
  { reason: 'podman', pattern: /\bpodman\b/ },
  {
    reason: 'process',
    pattern: /from '(?:node:)?child_process'|StdioClientTransport|from 'execa'/,
  },
];

const IMPORT = /(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g;

/** Why `file` (relative to `root`) is not quick, or undefined when it is. */
export function heavyReason(
  root: string,
  file: string,
  seen = new Map<string, HeavyReason | undefined>(),
): HeavyReason | undefined {
  if (seen.has(file)) return seen.get(file);
  seen.set(file, undefined);
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  let reason = MARKERS.find((marker) => marker.pattern.test(text))?.reason;
  for (const match of text.matchAll(IMPORT)) {
    if (reason) break;
    const target = path.posix
      .normalize(path.posix.join(path.posix.dirname(file), match[1] ?? ''))
      .replace(/\.js$/, '.ts');
    if (target.startsWith('test/') && fs.existsSync(path.join(root, target))) {
      reason = heavyReason(root, target, seen);
    }
  }
  seen.set(file, reason);
  return reason;
}

function testFiles(root: string, dir = 'test'): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return testFiles(root, rel);
      return entry.name.endsWith('.test.ts') ? [rel] : [];
    })
    .sort();
}

/** The quick lane's test files, and the others with their reason (paths relative to `root`). */
export function quickLane(root = process.cwd()): {
  files: string[];
  left: { file: string; reason: HeavyReason }[];
} {
  const files: string[] = [];
  const left: { file: string; reason: HeavyReason }[] = [];
  const seen = new Map<string, HeavyReason | undefined>();
  for (const file of testFiles(root)) {
    const reason = SLOW.has(file) ? 'slow' : heavyReason(root, file, seen);
    if (reason) left.push({ file, reason });
    else files.push(file);
  }
  return { files, left };
}

if (process.argv[1]?.endsWith(path.join('scripts', 'quick-lane.ts'))) {
  const { files, left } = quickLane();
  for (const { file, reason } of left) console.log(`${reason}\t${file}`);
  console.log(`quick lane: ${files.length} files; left out: ${left.length}`);
}
