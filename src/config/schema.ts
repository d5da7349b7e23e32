import { z } from 'zod';
import { floodSchema } from './flood-schema.js';
import { handoffSchema } from './handoff-schema.js';
import { engineSchema } from './engine-schema.js';

export { engineSchema };
import { governorSchema } from './governor-schema.js';

/** Client names are used as directory and object names: keep them boring. */
export const CLIENT_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const clientNameSchema = z
  .string()
  .regex(CLIENT_NAME_PATTERN, 'client names are 1-64 characters of A-Z, a-z, 0-9, _ and -');

/** Keys that moved out of `engine`: their old names get an error naming the new key. */
export const reconnectSchema = z
  .object({
    /** Consecutive failed reconnects before the client is FAILED (0: never reconnect). */
    maxAttempts: z.number().int().min(0).default(5),
    /** Delay ceiling of the first reconnect; doubles with each consecutive failure. */
    initialDelayMs: z.number().int().min(0).default(1_000),
    /** Longest delay between reconnects. */
    maxDelayMs: z.number().int().min(0).default(60_000),
    /** `full`: uniform in [0, ceiling]; `decorrelated`: [initial, 3 × previous]; `none`: the ceiling. */
    jitter: z.enum(['full', 'decorrelated', 'none']).default('full'),
  })
  .strict();

const localAuthSchema = z
  .object({
    type: z.literal('local'),
    /** Directory where session data is stored (one 0700 sub-directory per client). */
    dataPath: z.string().min(1).default('./.wakit/sessions'),
  })
  .strict();

const remoteAuthSchema = z
  .object({
    type: z.literal('remote'),
    storage: z
      .object({
        projectId: z.string().min(1),
        bucket: z.string().min(3),
        /** Object key prefix for sessions inside the bucket. */
        path: z.string().default('wakit/sessions'),
        /** GCS-compatible endpoint (emulators); STORAGE_EMULATOR_HOST also works. */
        apiEndpoint: z.url().optional(),
      })
      .strict(),
    /** Local scratch directory (browser profile, session zip before upload). */
    dataPath: z.string().min(1).default('./.wakit/remote-cache'),
    /** How often a READY session is backed up. */
    backupIntervalMs: z.number().int().min(60_000).default(300_000),
    /** How many older backups are kept besides the current one. */
    keepGenerations: z.number().int().min(1).max(50).default(3),
    lease: z
      .object({
        /** A lease not renewed for this long lapses and another server may take over. */
        ttlMs: z.number().int().min(1_000).default(30_000),
        /** Renewal period; must be well under ttlMs. */
        renewMs: z.number().int().min(100).default(10_000),
        /** On SESSION_LEASED: `wait` keeps retrying until the lease lapses, `fail` gives up. */
        onLeased: z.enum(['wait', 'fail']).default('wait'),
        /** Time between attempts while waiting for a lease. */
        retryMs: z.number().int().min(100).default(5_000),
      })
      .strict()
      .prefault({})
      .refine((lease) => lease.renewMs < lease.ttlMs, 'lease.renewMs must be below lease.ttlMs'),
  })
  .strict();

export const authSchema = z.discriminatedUnion('type', [localAuthSchema, remoteAuthSchema]);

export const queueSchema = z
  .object({
    /** Minimum time between two sends of one client. */
    minGapMs: z.number().int().min(0).default(1_000),
    /** Random extra delay added to every gap: uniform in [0, jitterMs]. */
    jitterMs: z.number().int().min(0).default(1_500),
    /** Minimum time between two sends to the same chat. */
    perChatGapMs: z.number().int().min(0).default(3_000),
    /**
     * Gap after a reaction, "typing…" or read receipt (they skip minGapMs, jitter and the per-chat
     * gap); never longer than minGapMs + jitterMs.
     */
    lightGapMs: z.number().int().min(0).default(250),
    /** Show "typing…" before each text message, 30 ms per character (0.5–4 s). */
    typingBeforeSend: z.boolean().default(false),
    /** Sends accepted but not yet sent; beyond it sends fail with QUEUE_FULL. */
    maxSize: z.number().int().min(1).default(1_000),
    /** Time one send may take before it fails with SEND_TIMEOUT. */
    sendTimeoutMs: z.number().int().min(100).default(60_000),
    /** Retries of transient engine errors. */
    retries: z.number().int().min(0).default(2),
    /** Delay ceiling of the first retry; doubles each retry, full jitter (uniform in [0, ceiling]). */
    retryBackoffMs: z.number().int().min(0).default(2_000),
    /** Accept sends while the client is not READY and send them once it is. */
    holdUntilReady: z.boolean().default(false),
    /**
     * Waiting sends of each priority held in memory per client; the others wait only in the outbox
     * and are loaded back, in order, as these go out.
     */
    memoryWindow: z.number().int().min(1).default(1_000),
    /** How many finished sends are kept in memory for fast look-up by tracking id. */
    trackLimit: z.number().int().min(0).default(10_000),
    /** Where accepted sends are journaled: `sqlite` (durable, default) or `memory` (lost on a crash). */
    persistence: z.enum(['sqlite', 'memory']).default('sqlite'),
    /** `default`: a journaled send survives a process crash; `fsync`: a power loss too (slower). */
    durability: z.enum(['default', 'fsync']).default('default'),
    /** The outbox file; default `<auth.dataPath>/outbox.db`. */
    outboxPath: z.string().min(1).optional(),
    /** Finished sends kept in the outbox (status look-ups, idempotency keys), by count and age. */
    retention: z
      .object({
        maxCount: z.number().int().min(0).default(100_000),
        maxAgeMs: z
          .number()
          .int()
          .min(0)
          .default(7 * 24 * 3600_000),
        pruneIntervalMs: z.number().int().min(1_000).default(600_000),
      })
      .strict()
      .prefault({}),
    /**
     * Waiting sends when the session ends (expired, logged out, FAILED): `fail` them with
     * SESSION_EXPIRED / CLIENT_FAILED, or `keep` them for when the same account comes back.
     * Either way a send is never made from another account than the one it was accepted for.
     */
    onSessionEnd: z.enum(['fail', 'keep']).default('fail'),
    /** How long `sdk.stop()` (and SIGTERM in the CLI) lets queued sends go out; the rest stays journaled. */
    drainTimeoutMs: z.number().int().min(0).default(10_000),
    /** Scheduled sends (`sendAt`, docs/scheduling.md): how far ahead, how far back. */
    schedule: z
      .object({
        maxAheadMs: z
          .number()
          .int()
          .min(1_000)
          .default(90 * 24 * 3600_000),
        pastToleranceMs: z.number().int().min(0).default(60_000),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export const mediaSchema = z
  .object({
    /** Largest media accepted, in bytes (downloads are cut off beyond it). */
    maxBytes: z
      .number()
      .int()
      .min(1)
      .default(16 * 1024 * 1024),
    /** Time allowed for one media download. */
    timeoutMs: z.number().int().min(1).default(30_000),
    maxRedirects: z.number().int().min(0).max(10).default(5),
    /** Allow URLs that resolve to private, loopback or link-local addresses. Keep off in production. */
    allowPrivateNetworks: z.boolean().default(false),
  })
  .strict();

export const logSchema = z
  .object({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Human-readable output (pino-pretty) instead of JSON lines. */
    pretty: z.boolean().default(false),
  })
  .strict();

export const commandsSchema = z
  .object({
    prefix: z.string().min(1).max(5).default('!'),
    /** Reply to unknown commands with this text; silent when absent. */
    unknownReply: z.string().optional(),
  })
  .strict();

export const watchdogSchema = z
  .object({
    /**
     * An event handler or command that has not settled after this long is reported
     * (HANDLER_TIMEOUT, with plugin and event) and the next handlers run. 0 turns it off.
     */
    handlerTimeoutMs: z.number().int().min(0).default(30_000),
    /** A warning is logged each time the event loop was blocked longer than this. */
    eventLoopDelayWarnMs: z.number().int().min(1).default(1_000),
    /** Window of the longest-block figure exported in `/metrics`. */
    eventLoopCheckMs: z.number().int().min(10).default(5_000),
    /**
     * `/healthz` answers 503 (not live) when the event loop was blocked longer than this within
     * the last `eventLoopCheckMs` window.
     */
    eventLoopUnhealthyMs: z.number().int().min(1).default(5_000),
    /** `/healthz` answers 503 once every client of this server has been FAILED this long. */
    failedGraceMs: z.number().int().min(0).default(60_000),
    /**
     * `wakit start` / `wakit dev` exit with code 1, one line per client saying why, once every
     * client of this server is FAILED. Default: on for `wakit start`, off for `wakit dev`.
     */
    exitOnAllFailed: z.boolean().optional(),
  })
  .strict();

export const callsSchema = z
  .object({
    /** Reject incoming calls automatically (bots that cannot answer). */
    reject: z.boolean().default(false),
    /** Sent to the caller through the outbound queue after an automatic rejection. */
    message: z.string().min(1).max(4096).optional(),
  })
  .strict();

export const clusterSchema = z
  .object({
    type: z.literal('redis'),
    /** Redis 7 URL, e.g. `redis://redis:6379/0` (`rediss://` for TLS); holds outbox, events, placement. */
    url: z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL'),
    /** This node's id in the fleet; default `<hostname>-<pid>`. Unique per running process. */
    nodeId: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'letters, digits and _ . : - only')
      .optional(),
    /** Clients this node runs at most (Chromium memory per client sizes it); default: no limit. */
    maxClients: z.number().int().min(1).optional(),
    /**
     * The URL other nodes reach this node's REST API at (requests for clients it owns are forwarded
     * there); default `http://127.0.0.1:<rest port>`.
     */
    advertiseUrl: z.url().optional(),
    /** Prefix of every Redis key, so several fleets can share one Redis. */
    keyPrefix: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - only')
      .default('wakit'),
    /** How often a node announces itself and rebalances; a node silent for 3 × this is gone. */
    heartbeatMs: z.number().int().min(100).default(2_000),
  })
  .strict();

/** A burst of one chat member's messages gathered into one turn (docs/turns.md). */
export const turnsSchema = z
  .object({
    /** The window closes this long after the last message (or typing); 0: off (one message, one turn). */
    quietMs: z.number().int().min(0).max(600_000),
    /** The window closes at the latest this long after its first message. */
    maxMs: z.number().int().min(1).max(3_600_000).default(15_000),
  })
  .strict()
  .refine((t) => t.quietMs === 0 || t.maxMs >= t.quietMs, {
    message: 'maxMs must be at least quietMs',
    path: ['maxMs'],
  });

/** Conversations, chat state and the order of incoming messages (docs/conversations.md). */
export const conversationsSchema = z
  .object({
    /**
     * Where conversations and chat state are kept: `auto` (the default: `redis` with `cluster`,
     * else `sqlite`), `sqlite` (a file beside the outbox), `redis` (the fleet's Redis, shared by
     * every node: needs `cluster`), `memory` (tests: lost on restart).
     */
    store: z.enum(['auto', 'sqlite', 'redis', 'memory']).default('auto'),
    /** The SQLite file; default `<auth.dataPath>/conversations.db`. */
    path: z.string().min(1).optional(),
    /** Chats whose messages are handled at the same time (each chat's in order, one at a time). */
    concurrency: z.number().int().min(1).max(10_000).default(32),
    /** Largest chat state value (JSON bytes); a larger write fails with STATE_TOO_LARGE. */
    stateMaxBytes: z.number().int().min(256).max(16_777_216).default(65_536),
    /** Chat state not written for this many days counts as gone; 0: kept until erased. */
    stateTtlDays: z.number().min(0).default(0),
    /** Gather a chat's bursts into one turn; absent: the plugins' choice, else off. */
    turns: turnsSchema.optional(),
  })
  .strict();

export const configSchema = z
  .object({
    $schema: z.string().optional(),
    engine: engineSchema.prefault({ type: 'whatsapp-web.js' }),
    auth: authSchema,
    reconnect: reconnectSchema.prefault({}),
    /** Clients created (and initialized) by `sdk.start()`. */
    clients: z
      .array(clientNameSchema)
      .default([])
      .refine((names) => new Set(names).size === names.length, 'client names must be unique'),
    queue: queueSchema.prefault({}),
    /** Send budgets per account, warm-up, restriction signals (docs/safety.md). */
    governor: governorSchema.prefault({}),
    media: mediaSchema.prefault({}),
    log: logSchema.prefault({}),
    commands: commandsSchema.prefault({}),
    /** Hung handlers and a blocked event loop: detected, reported, measured. */
    watchdog: watchdogSchema.prefault({}),
    /** Incoming calls: rejected automatically, with an optional message to the caller. */
    calls: callsSchema.prefault({}),
    /** Conversations and chat state: where they are kept, how many chats run at once. */
    conversations: conversationsSchema.prefault({}),
    /** Inbound flood control: people who write too fast are not answered (docs/safety.md). */
    flood: floodSchema.prefault({}),
    /** Chat modes bot | human | closed: a person takes over a chat (docs/handoff.md). */
    handoff: handoffSchema.prefault({}),
    /** Plugins by built-in name, relative path or package name; the value is its options, `false` disables it. */
    plugins: z.record(z.string().min(1), z.unknown()).default({}),
    /** Several servers, one API: Redis holds the outbox, events and placement (docs/scaling.md). */
    cluster: clusterSchema.optional(),
  })
  .strict()
  .refine((config) => config.conversations.store !== 'redis' || config.cluster !== undefined, {
    message: 'conversations.store "redis" is the fleet\'s Redis: it needs the cluster section',
    path: ['conversations', 'store'],
  })
  .refine((config) => !config.cluster || config.auth.type === 'remote', {
    message:
      'cluster mode needs remote (GCS) sessions so any node can take over any client: set auth.type to "remote"',
    path: ['cluster'],
  });

export type WakitConfigInput = z.input<typeof configSchema>;
export type WakitConfig = z.output<typeof configSchema>;
export type EngineConfig = WakitConfig['engine'];
export type AuthConfig = WakitConfig['auth'];
export type ReconnectConfig = WakitConfig['reconnect'];
export type QueueConfig = WakitConfig['queue'];
export type MediaConfig = WakitConfig['media'];
export type LogConfig = WakitConfig['log'];
export type WatchdogConfig = WakitConfig['watchdog'];
export type CallsConfig = WakitConfig['calls'];
export type ConversationsConfig = WakitConfig['conversations'];
export type ClusterConfig = NonNullable<WakitConfig['cluster']>;
