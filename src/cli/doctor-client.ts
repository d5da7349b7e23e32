/**
 * `wakit doctor --client <name>`: starts that client from its saved session (never showing a QR
 * for long: an unlinked client is reported, not linked), probes its engine and reports the
 * WhatsApp Web build, the library, every capability and every compat fix, then stops it (the
 * session is kept). Plugins are not loaded.
 */
import { pino } from 'pino';
import type { WakitConfig } from '../config/schema.js';
import { createSdk } from '../sdk.js';
import type { PinCheck } from '../engines/health.js';
import type { CheckResult } from './doctor-checks.js';

export async function checkLinkedClient(
  config: WakitConfig,
  baseDir: string,
  name: string,
  timeoutMs: number,
): Promise<CheckResult[]> {
  const sdk = createSdk({ ...config, plugins: {} }, { baseDir, logger: pino({ level: 'silent' }) });
  const client = sdk.createClient({ name });
  const title = `client ${name}`;
  try {
    // A QR code still shown after a moment: not linked (the simulator's auto-scan links in that time).
    let unlinked: (() => void) | undefined;
    const shownQr = new Promise<false>((resolve) => (unlinked = () => resolve(false)));
    let timer: NodeJS.Timeout | undefined;
    client.once('qr', () => {
      timer = setTimeout(() => client.state === 'SCAN_QR' && unlinked?.(), 2_000);
    });
    await client.initialize();
    const ready = client.waitUntilReady({ timeoutMs });
    // not reported: awaited in the race below, which turns it into the doctor's answer
    ready.catch(() => undefined);
    const linked = await Promise.race([ready.then(() => true as const), shownQr])
      .catch((error: unknown) => error as Error)
      .finally(() => clearTimeout(timer));
    if (linked === false) {
      return [
        {
          level: 'blocker',
          title,
          detail: 'is not linked (WhatsApp shows a QR code for it)',
          fix: `link it first: wakit start, then scan the QR code with the phone`,
        },
      ];
    }
    if (linked !== true) {
      return [
        {
          level: 'blocker',
          title,
          detail: `did not become READY (${linked.message})`,
          fix: 'run wakit start to see why; the checks above name missing pieces',
        },
      ];
    }
    const health = await client.checkHealth();
    if (!health) return [{ level: 'skip', title, detail: 'its engine has no health probes' }];
    const results: CheckResult[] = [
      {
        level: health.status === 'ok' ? 'ok' : 'blocker',
        title: `${title}: WhatsApp Web`,
        detail: `build ${health.build ?? 'unknown'}${health.library ? `, ${health.library}` : ''}`,
        ...(health.status === 'ok'
          ? {}
          : {
              fix:
                `broken: ${health.broken.join(', ')}. Upgrade wakit, pin a working ` +
                'engine.webVersion, or add an operator fix (engine.compat.extra); docs/engines.md',
            }),
      },
    ];
    if (health.pin) results.push(pinResult(health.pin));
    for (const [capability, result] of Object.entries(health.capabilities)) {
      results.push({
        level: result.ok ? 'ok' : 'blocker',
        title: `  capability ${capability}`,
        detail: result.ok ? 'works' : `broken${result.detail ? `: ${result.detail}` : ''}`,
      });
    }
    for (const fix of health.compat) {
      const needed = fix.needed === null ? 'not known yet' : fix.needed ? 'needed' : 'not needed';
      const broken = fix.needed === true && !fix.applied;
      results.push({
        level: broken ? 'blocker' : 'ok',
        title: `  compat ${fix.id}${fix.source === 'builtin' ? '' : ` (${fix.source})`}`,
        detail: `${needed}, ${fix.applied ? 'installed' : 'not installed'}${fix.detail ? ` (${fix.detail})` : ''}`,
        ...(broken ? { fix: 'report it with this output; see docs/engines.md' } : {}),
      });
    }
    return results;
  } finally {
    // not reported: the doctor's answer is in `results`; a stop that fails ends the process anyway
    await sdk.stop({ drainTimeoutMs: 100 }).catch(() => undefined);
  }
}

/** The pin against the running build: a warning when another build runs (it works, unpinned). */
function pinResult(pin: PinCheck): CheckResult {
  const line = { title: `  pin ${pin.pinned ?? '(none)'}` };
  if (pin.status === 'mismatch') {
    return {
      ...line,
      level: 'warn',
      detail: `does not hold: the page runs ${pin.running ?? 'an unknown build'}`,
      fix:
        'the archive may no longer have the pinned build (it keeps builds about two months), or ' +
        'a service worker served another one: pin a build your local cache has; docs/engines.md',
    };
  }
  const detail =
    pin.status === 'held'
      ? 'holds'
      : pin.status === 'unpinned'
        ? `none: the live build runs (${pin.running ?? 'unknown'})`
        : 'the page did not say which build it runs';
  return { ...line, level: 'ok', detail };
}
