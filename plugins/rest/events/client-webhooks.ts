/**
 * Webhooks of clients added at run time: kept with the client in the client registry (the
 * settings the REST plugin keeps under `rest`), so they survive restarts and go when the client
 * goes. Parsed once per change; delivered by the WebhookDispatcher with the same signing and retry
 * policy as configured webhooks, through the SSRF-guarded transport.
 */
import type { Logger } from 'pino';
import type * as http from '../../../src/entries/http.js';
import { WakitError, z } from '../../../src/index.js';
import { refusedHost } from './guarded-post.js';
import { clientWebhookSchema, type ClientWebhookOptions } from '../options.js';

/** The key of the REST plugin's settings in a client's registry record. */
export const SETTINGS_KEY = 'rest';

const storedSchema = z.object({ webhooks: z.array(clientWebhookSchema) }).loose();

/** What GET responses show instead of a secret. */
export const SECRET_MASK = '********';

export type MaskedWebhook = Omit<ClientWebhookOptions, 'secret'> & { secret: typeof SECRET_MASK };

export function maskWebhook(hook: ClientWebhookOptions): MaskedWebhook {
  return { ...hook, secret: SECRET_MASK };
}

export class ClientWebhooks {
  readonly #admin: http.ClientAdmin;
  readonly #log: Logger;
  readonly #allowPrivateNetworks: boolean;
  readonly #maxPerClient: number;
  /** Parsed hooks by client, with the stored JSON they came from (unchanged hooks keep identity). */
  readonly #byClient = new Map<string, { raw: string; hooks: ClientWebhookOptions[] }>();
  readonly #listeners = new Set<() => void>();
  readonly #detach: () => void;

  constructor(
    admin: http.ClientAdmin,
    options: { allowPrivateNetworks: boolean; maxPerClient: number; log: Logger },
  ) {
    this.#admin = admin;
    this.#log = options.log;
    this.#allowPrivateNetworks = options.allowPrivateNetworks;
    this.#maxPerClient = options.maxPerClient;
    this.#rebuild();
    this.#detach = admin.onChange(() => {
      this.#rebuild();
      for (const listener of [...this.#listeners]) {
        try {
          listener();
        } catch (error) {
          // not reported: the listeners are the REST server's own subscriptions (no plugin code);
          // one that throws is a bug of the server, logged, and the others still hear the change
          this.#log.error({ err: error }, 'a client webhook listener threw');
        }
      }
    });
  }

  get allowPrivateNetworks(): boolean {
    return this.#allowPrivateNetworks;
  }

  /** The webhooks of one client (none for configured and code-created clients). */
  of(client: string): readonly ClientWebhookOptions[] {
    return this.#byClient.get(client)?.hooks ?? [];
  }

  /** Every client's webhooks together. */
  all(): ClientWebhookOptions[] {
    return [...this.#byClient.values()].flatMap((entry) => entry.hooks);
  }

  /**
   * VALIDATION_FAILED when there are too many hooks, or one points at an address the policy
   * refuses (`clientWebhooks.allowPrivateNetworks`); `path` prefixes the issue paths.
   */
  check(hooks: readonly ClientWebhookOptions[], path: string): void {
    const issues: { path: string; message: string }[] = [];
    if (hooks.length > this.#maxPerClient) {
      issues.push({ path, message: `at most ${this.#maxPerClient} webhooks per client` });
    }
    if (!this.#allowPrivateNetworks) {
      hooks.forEach((hook, i) => {
        if (refusedHost(hook.url)) {
          issues.push({
            path: `${path}.${i}.url`,
            message:
              'loopback, private, link-local and other special-purpose addresses are refused (clientWebhooks.allowPrivateNetworks)',
          });
        }
      });
    }
    if (issues.length > 0) {
      throw new WakitError('VALIDATION_FAILED', 'The webhooks are not accepted', { issues });
    }
  }

  /** The settings to keep for `hooks` (for `addClient`). */
  settings(hooks: readonly ClientWebhookOptions[]): Record<string, unknown> {
    return hooks.length > 0 ? { [SETTINGS_KEY]: { webhooks: hooks } } : {};
  }

  /** Replaces a client's webhooks, durably (CLIENT_NOT_MANAGED for clients not added at run time). */
  async set(client: string, hooks: readonly ClientWebhookOptions[]): Promise<void> {
    this.check(hooks, 'webhooks');
    const current = this.#admin.settings(client, SETTINGS_KEY);
    const rest = current && typeof current === 'object' ? current : {};
    await this.#admin.updateSettings(client, SETTINGS_KEY, { ...rest, webhooks: hooks });
  }

  /** Calls `listener` after any client's webhooks may have changed. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#detach();
    this.#listeners.clear();
  }

  #rebuild(): void {
    const seen = new Set<string>();
    for (const record of this.#admin.records()) {
      // a kept record shadowed by a configured client of the same name gives it no webhooks
      if (this.#admin.origin(record.name) !== 'api') continue;
      const stored = record.settings[SETTINGS_KEY];
      if (stored === undefined) continue;
      seen.add(record.name);
      const raw = JSON.stringify(stored);
      if (this.#byClient.get(record.name)?.raw === raw) continue;
      const parsed = storedSchema.safeParse(stored);
      if (!parsed.success) {
        // never log the value: it holds secrets
        this.#log.warn(
          { client: record.name },
          'client %s: the stored webhooks are not valid; none are delivered',
          record.name,
        );
      }
      this.#byClient.set(record.name, { raw, hooks: parsed.success ? parsed.data.webhooks : [] });
    }
    for (const name of this.#byClient.keys()) if (!seen.has(name)) this.#byClient.delete(name);
  }
}
