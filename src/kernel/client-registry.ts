/**
 * The ClientRegistry port: where clients created at run time (`sdk.addClient`, `POST
 * /api/v1/clients`) are kept so the next start re-creates them. The file adapter keeps them in
 * `<auth.dataPath>/clients.json`; a shared store (issue 14: Redis) plugs in through the same port
 * (`SdkOptions.clientRegistry`).
 *
 * Records may hold secrets (a per-client webhook's signing secret): adapters keep them private
 * (the file is 0600 in a 0700 directory) and never log them.
 */
import { z } from 'zod';
import { clientNameSchema } from '../config/schema.js';

/** One client created at run time. */
export interface ClientRecord {
  name: string;
  /** ISO 8601 time it was created. */
  createdAt: string;
  /**
   * What plugins keep with the client, by plugin name (JSON values): the REST plugin keeps the
   * client's webhooks under `rest`. Replaced as a whole by `ClientAdmin.updateSettings`.
   */
  settings: Readonly<Record<string, unknown>>;
}

export interface ClientRegistry {
  /** Adapter name, for logs (`file`, `memory`, ...). */
  readonly kind: string;
  /**
   * Every record, oldest first. Rejects with REGISTRY_CORRUPT when the stored data is not a
   * registry, REGISTRY_UNAVAILABLE when it cannot be read.
   */
  list(): Promise<ClientRecord[]>;
  /** Adds or replaces the record of `record.name`, durably; REGISTRY_UNAVAILABLE on failure. */
  put(record: ClientRecord): Promise<void>;
  /** Removes the record of `name` (a missing one is not an error); REGISTRY_UNAVAILABLE on failure. */
  delete(name: string): Promise<void>;
}

export const clientRecordSchema = z
  .object({
    name: clientNameSchema,
    createdAt: z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 time'),
    settings: z.record(z.string(), z.unknown()),
  })
  .strict();

/** A registry in memory (tests, or an SDK that should not remember run-time clients). */
export class MemoryClientRegistry implements ClientRegistry {
  readonly kind = 'memory';
  readonly #records = new Map<string, ClientRecord>();

  list(): Promise<ClientRecord[]> {
    return Promise.resolve([...this.#records.values()]);
  }

  put(record: ClientRecord): Promise<void> {
    this.#records.set(record.name, structuredClone(record));
    return Promise.resolve();
  }

  delete(name: string): Promise<void> {
    this.#records.delete(name);
    return Promise.resolve();
  }
}
