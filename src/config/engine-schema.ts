/** The `engine` section of the configuration: WhatsApp Web (whatsapp-web.js) or the simulator. */
import { z } from 'zod';
import { CAPABILITIES } from '../engines/health.js';

const MOVED_ENGINE_KEYS: Record<string, string> = {
  maxRestarts: 'reconnect.maxAttempts',
  restartBackoffMs: 'reconnect.initialDelayMs and reconnect.maxDelayMs',
};

function movedEngineKey(issue: { code?: string; keys?: string[] }): string | undefined {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const moved = (issue.keys ?? []).filter((key) => key in MOVED_ENGINE_KEYS);
  if (moved.length === 0) return undefined;
  const hints = moved.map((key) => `engine.${key} moved to ${MOVED_ENGINE_KEYS[key]}`);
  const others = (issue.keys ?? []).filter((key) => !(key in MOVED_ENGINE_KEYS));
  const rest = others.length ? `; unrecognized key(s): ${others.join(', ')}` : '';
  return `Reconnect settings live in the "reconnect" section: ${hints.join('; ')}${rest}`;
}

/** Engine health checks (docs/engines.md): after READY, then every this many ms; 0 turns off the timer. */
const healthIntervalMs = z.number().int().min(0).default(300_000);

/**
 * How long a received message waits for its sender's contact look-up before it is emitted with the
 * sender fields it came with (docs/engines.md, "Deadlines on page calls"); later messages never
 * wait behind it longer. The look-up goes on and fills the cache when it answers.
 */
const senderLookUpTimeoutMs = z.number().int().min(1).default(5_000);

/** Capability names of the engine health probes. */
const capabilityName = z.enum(CAPABILITIES);

const simulatorEngineSchema = z.strictObject(
  {
    type: z.literal('simulator'),
    /** Link automatically this long after a QR is shown (demos, `wakit dev`). Off when absent. */
    autoScanMs: z.number().int().min(0).optional(),
    /** Phone number the auto-scan links as; derived from the client name when absent. */
    autoScanPhone: z
      .string()
      .regex(/^\d{6,15}$/)
      .optional(),
    /** Time before a shown QR code is replaced by a new one. */
    qrRefreshMs: z.number().int().min(1).default(20_000),
    /** How many QR codes are shown before giving up with `qr_timeout`. */
    qrMaxRetries: z.number().int().min(1).default(5),
    /** Time between ack steps (server → delivered → read). */
    ackDelayMs: z.number().int().min(0).default(50),
    /** Simulated network latency of a send. */
    latencyMs: z.number().int().min(0).default(0),
    senderLookUpTimeoutMs,
    healthIntervalMs,
    /**
     * The simulated WhatsApp Web build and the capabilities it breaks (health probes report them
     * broken; such sends fail with ENGINE_INCOMPATIBLE). `sdk.simulator.setBuild()` changes it.
     */
    build: z
      .strictObject({
        version: z.string().min(1).default('2.3000.0-simulator'),
        broken: z.array(capabilityName).default([]),
      })
      .prefault({}),
  },
  { error: movedEngineKey },
);

const wwebjsEngineSchema = z
  .strictObject(
    {
      type: z.literal('whatsapp-web.js'),
      /** Chromium to drive; else PUPPETEER_EXECUTABLE_PATH, else /usr/bin/chromium and friends. */
      executablePath: z.string().min(1).optional(),
      headless: z.boolean().default(true),
      /** Extra puppeteer launch options, merged over the server-safe defaults. */
      puppeteer: z.record(z.string(), z.unknown()).default({}),
      /** QR codes shown before giving up (`qr_timeout`); 0 means no limit. */
      qrMaxRetries: z.number().int().min(0).default(5),
      /** Time allowed for WhatsApp Web to load and authenticate. */
      authTimeoutMs: z.number().int().min(0).default(60_000),
      /**
       * Deadline of every call into the page (puppeteer's `protocolTimeout`; its own default is
       * 180 s): a page call that never answers fails after this long instead of stalling the client.
       */
      protocolTimeoutMs: z.number().int().min(1_000).default(30_000),
      /**
       * When a READY page counts as hung (docs/engines.md): `timeouts` page calls timing out in a
       * row (no call answering between them) within `windowMs` end the attempt; the capability is
       * degraded and the client's supervisor starts a fresh page.
       */
      hungPage: z
        .strictObject({
          timeouts: z.number().int().min(1).default(2),
          windowMs: z.number().int().min(1_000).default(60_000),
        })
        .prefault({}),
      senderLookUpTimeoutMs,
      /**
       * Pin a WhatsApp Web version (whatsapp-web.js `webVersion`), e.g. `2.3000.1027526765`, or
       * `live` for no pin. Unset: no pin, the live build (docs/engines.md: no default pin, the
       * archive drops builds after about two months). The running build is compared with the pin.
       */
      webVersion: z
        .union([
          z.literal('live'),
          z
            .string()
            .regex(
              /^\d+\.\d+\.\d+(-alpha|-beta)?$/,
              'a WhatsApp Web version like 2.3000.1027526765, or live',
            ),
        ])
        .optional(),
      /**
       * Where a pinned `webVersion` comes from: `remote` (the wppconnect wa-version archive; a miss
       * loads the live build, reported as a pin that does not hold), `local` (the client's own
       * `web-cache` directory, where every build that loaded is kept; a missing file fails the
       * start instead of loading another build), `{ type: 'local', path }`:
       * `<path>/<webVersion>.html` from a directory of your own, or `{ type: 'remote', url }`: a
       * mirror of the archive (`{version}` in the URL is the archive's file name, e.g.
       * `2.3000.1027526765-alpha`).
       */
      webVersionCache: z
        .union([
          z.enum(['remote', 'local']),
          z.strictObject({ type: z.literal('local'), path: z.string().min(1) }),
          z.strictObject({
            type: z.literal('remote'),
            url: z
              .url({ protocol: /^https?$/ })
              .refine((url) => url.includes('{version}'), 'the URL must contain {version}'),
          }),
        ])
        .default('remote'),
      /**
       * Refuse to run a build other than the pin: the running build (`window.Debug.VERSION`) is
       * compared with `webVersion` on every page load; another build makes the client FAILED with
       * WEB_VERSION_MISMATCH. Needs a pinned `webVersion`. Off: a mismatch is a health condition.
       */
      webVersionStrict: z.boolean().default(false),
      userAgent: z.string().optional(),
      healthIntervalMs,
      /**
       * The inbound bridge check (docs/engines.md): READY with no message event for `silenceMs`
       * (0: never checked), a health check sends one message to the account's own chat; when it
       * does not come back within `echoTimeoutMs`, `events.inbound` is broken and the page reloads.
       */
      inboundCheck: z
        .strictObject({
          silenceMs: z.number().int().min(0).default(900_000),
          echoTimeoutMs: z.number().int().min(1).default(15_000),
        })
        .prefault({}),
      /** The compat layer (docs/engines.md): operator fixes, loaded like the built-in ones. */
      compat: z
        .strictObject({
          /** Files (relative to the config) exporting `{ id, probe, fix }`. */
          extra: z.array(z.string().min(1)).default([]),
          /**
           * Built-in fixes not to install (their ids, e.g. `media-send-id`): still probed and
           * reported, never installed; for a fix that misbehaves on a build.
           */
          disable: z.array(z.string().min(1)).default([]),
        })
        .prefault({}),
    },
    { error: movedEngineKey },
  )
  .refine(
    (engine) =>
      !engine.webVersionStrict || (engine.webVersion !== undefined && engine.webVersion !== 'live'),
    {
      path: ['webVersionStrict'],
      message: 'engine.webVersionStrict needs a pinned engine.webVersion (not unset, not live)',
    },
  );

/** Reconnecting after a recoverable disconnect (ConnectionSupervisor), whatever the engine. */
export const engineSchema = z.discriminatedUnion('type', [
  simulatorEngineSchema,
  wwebjsEngineSchema,
]);
