import { z } from '../../src/index.js';
import * as contract from '../../src/entries/contract.js';
import * as http from '../../src/entries/http.js';

/** Events a client emits that SSE and webhooks carry. */
export const EVENT_TYPES = contract.ACCOUNT_EVENT_NAMES;
export type EventType = (typeof EVENT_TYPES)[number];

/** Shortest bearer token accepted (`openssl rand -hex 32` makes 64 characters). */
export const MIN_TOKEN_LENGTH = 32;
const TOKEN_HINT = 'make one with `openssl rand -hex 32` and set WAKIT_REST_TOKEN to it';
const PLACEHOLDER =
  /change-?me|replace-?me|your[-_]?(?:secret|token)|^(?:x+|0+|(?:token|secret|example|test)[-_]?)+$/i;

/** True for tokens copied from an example (`change-me-…`, `replace-me…`, `your-token`, `xxxx…`). */
export function isPlaceholderToken(token: string): boolean {
  return PLACEHOLDER.test(token);
}

export const tokenSchema = z
  .object({
    /** The bearer token: at least 32 characters, not a placeholder (make one: `openssl rand -hex 32`). */
    token: z
      .string()
      .min(MIN_TOKEN_LENGTH, `tokens are at least ${MIN_TOKEN_LENGTH} characters: ${TOKEN_HINT}`)
      .refine((t) => !isPlaceholderToken(t), {
        message: `this token is a placeholder from an example: ${TOKEN_HINT}`,
      }),
    /** Clients this token may see and act on: `["*"]` for all. */
    clients: z
      .array(z.union([z.literal('*'), http.clientNameSchema]))
      .min(1)
      .default(['*']),
  })
  .strict();

export const webhookSchema = z
  .object({
    /** Where events are POSTed (http or https). */
    url: z.url({ protocol: /^https?$/ }),
    /** Event types to deliver; all of them when absent. */
    events: z.array(z.enum(EVENT_TYPES)).min(1).optional(),
    /** Only events of these clients; all when absent. */
    clients: z.array(http.clientNameSchema).min(1).optional(),
    /**
     * HMAC-SHA256 key of `webhook-signature` (Standard Webhooks) and the legacy `X-Wakit-Signature`;
     * at least 16 characters. A `whsec_<base64>` secret is used as its decoded bytes.
     */
    secret: z.string().min(16, 'webhook secrets are at least 16 characters'),
    /** Attempts per event, the first included. */
    maxAttempts: z.number().int().min(1).max(20).default(5),
    /** Delay ceiling of the first retry; doubles each retry (capped by maxBackoffMs); full jitter. */
    backoffMs: z.number().int().min(0).default(1_000),
    maxBackoffMs: z.number().int().min(0).default(60_000),
    /** Time one delivery attempt may take. */
    timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
    /** Deliveries waiting or in flight; beyond it new events are dropped (and counted). */
    maxPending: z.number().int().min(1).default(1_000),
  })
  .strict();

export const restOptionsSchema = z
  .object({
    port: z.number().int().min(0).max(65_535).default(3000),
    /** Interface to listen on; loopback by default. IPv6 may be written with brackets (`[::1]`). */
    host: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .transform((host) => (/^\[[0-9a-f:.]+\]$/i.test(host) ? host.slice(1, -1) : host)),
    tokens: z.array(tokenSchema).default([]),
    /** Client used by `/api/v1/client/...` and by messages without `client`; else the first client. */
    defaultClient: http.clientNameSchema.optional(),
    /** Largest request body, in bytes. */
    bodyLimit: z
      .number()
      .int()
      .min(1_024)
      .default(1024 * 1024),
    /** Origins allowed by CORS (exact match); CORS is off when absent. */
    cors: z.array(z.url()).optional(),
    webhooks: z.array(webhookSchema).default([]),
    /** Webhooks of clients added at run time (`PUT /api/v1/clients/{name}/webhooks`). */
    clientWebhooks: z
      .object({
        /**
         * Let per-client webhooks reach loopback, private and link-local addresses. Off by default:
         * they are set over the API, so they must not become a way into the internal network.
         */
        allowPrivateNetworks: z.boolean().default(false),
        /** Webhooks one client may have. */
        maxPerClient: z.number().int().min(1).max(100).default(10),
      })
      .strict()
      .prefault({}),
    /** Serve the dashboard at `/`. */
    dashboard: z.boolean().default(true),
    /** Serve Prometheus metrics at `/metrics`. */
    metrics: z.boolean().default(true),
    /** Allow running without tokens (loopback hosts only). Development only. */
    insecure: z.boolean().default(false),
    sse: z
      .object({
        /** Time between heartbeat comments on idle streams. */
        heartbeatMs: z.number().int().min(10).default(15_000),
        /** Events kept for `Last-Event-ID` resume. */
        bufferSize: z.number().int().min(1).max(100_000).default(1_000),
        /** Concurrent streams allowed, all tokens together. */
        maxStreams: z.number().int().min(1).default(100),
        /** Concurrent streams one token may hold (so one tenant cannot take every slot). */
        maxStreamsPerToken: z.number().int().min(1).default(10),
      })
      .strict()
      .prefault({}),
    /**
     * Requests per token: a token bucket refilled at `requestsPerSecond` holding at most `burst`;
     * beyond it 429 TOO_MANY_REQUESTS with `Retry-After`. `false` turns it off.
     */
    rateLimit: z
      .union([
        z.literal(false),
        z
          .object({
            requestsPerSecond: z.number().positive().max(100_000).default(50),
            burst: z.number().int().min(1).max(1_000_000).default(200),
          })
          .strict(),
      ])
      .default({ requestsPerSecond: 50, burst: 200 }),
    /** Time `close()` lets in-flight requests finish before cutting connections. */
    closeTimeoutMs: z.number().int().min(0).default(5_000),
  })
  .strict();

export type RestOptionsInput = z.input<typeof restOptionsSchema>;
export type RestOptions = z.output<typeof restOptionsSchema>;
export type WebhookOptions = z.output<typeof webhookSchema>;

/** A webhook of one client (set over the API): a configured webhook without `clients`. */
export const clientWebhookSchema = webhookSchema.omit({ clients: true });
export type ClientWebhookOptions = z.output<typeof clientWebhookSchema>;
