import type { SendPriority, TrackedSend } from '../types.js';
import type {
  Appended,
  AppendedNotice,
  BulkFailure,
  ListPage,
  ListQuery,
  OpenEntry,
  OutboxChange,
  OutboxEntry,
  OutboxStore,
  RetentionPolicy,
  WaitingQuery,
} from './outbox-store.js';

/**
 * An outbox that is made later (loaded on demand): every call waits for it. Updates asked for
 * before it is there are applied in order once it is; `watch` starts watching then.
 */
export class DeferredOutbox implements OutboxStore {
  readonly #later: Promise<OutboxStore>;
  #store: OutboxStore | undefined;

  /** `kind`: the kind of the outbox to come. */
  constructor(
    readonly kind: OutboxStore['kind'],
    later: Promise<OutboxStore>,
  ) {
    this.#later = later.then((store) => (this.#store = store));
    this.#later.catch(() => undefined);
  }

  async #ready(): Promise<OutboxStore> {
    return this.#store ?? this.#later;
  }

  async append(entry: OutboxEntry): Promise<Appended> {
    return (await this.#ready()).append(entry);
  }

  update(id: string, change: OutboxChange, seq?: number): void {
    if (this.#store) this.#store.update(id, change, seq);
    else void this.#later.then((store) => store.update(id, change, seq));
  }

  async committed(): Promise<void> {
    return (await this.#ready()).committed();
  }

  async get(id: string): Promise<TrackedSend | undefined> {
    return (await this.#ready()).get(id);
  }

  async list(query: ListQuery): Promise<ListPage> {
    return (await this.#ready()).list(query);
  }

  async open(client: string): Promise<OpenEntry[]> {
    return (await this.#ready()).open(client);
  }

  async openPage(query: WaitingQuery, limit: number): Promise<OpenEntry[]> {
    return (await this.#ready()).openPage(query, limit);
  }

  async countOpen(client: string): Promise<Record<SendPriority, number>> {
    return (await this.#ready()).countOpen(client);
  }

  async failOpen(query: WaitingQuery, failure: BulkFailure): Promise<TrackedSend[]> {
    return (await this.#ready()).failOpen(query, failure);
  }

  async media(id: string): Promise<Buffer | undefined> {
    return (await this.#ready()).media(id);
  }

  async prune(policy: RetentionPolicy, now: number): Promise<number> {
    return (await this.#ready()).prune(policy, now);
  }

  watch(client: string, listener: (notice: AppendedNotice) => void): () => void {
    let stop: (() => void) | undefined;
    let stopped = false;
    void this.#ready().then(
      (store) => {
        if (!stopped) stop = store.watch?.(client, listener);
      },
      () => undefined,
    );
    return () => {
      stopped = true;
      stop?.();
    };
  }

  /** Closes the outbox once it is there (a load that failed has nothing to close). */
  async close(): Promise<void> {
    const store = await this.#later.catch(() => undefined);
    await store?.close();
  }
}
