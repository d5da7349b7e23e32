import { WakitError } from '../../errors/index.js';
import type { SendPriority, TrackedSend } from '../types.js';
import type {
  Appended,
  AppendedNotice,
  BulkFailure,
  Deferral,
  ListPage,
  ListQuery,
  OpenEntry,
  OutboxChange,
  OutboxEntry,
  OutboxStore,
  RetentionPolicy,
  WaitingQuery,
} from './outbox-store.js';
import type { ScheduleStore } from './outbox-store.js';

/**
 * An outbox that is made later (loaded on demand): every call waits for it, and calls made before
 * it is there reach it in the order they were made (an update never overtakes its append).
 */
export class DeferredOutbox implements OutboxStore {
  readonly #later: Promise<OutboxStore>;
  #store: OutboxStore | undefined;
  /** Calls waiting for the outbox: later ones wait behind them. */
  #queued = 0;

  /** `kind`: the kind of the outbox to come. */
  constructor(
    readonly kind: OutboxStore['kind'],
    later: Promise<OutboxStore>,
  ) {
    this.#later = later.then((store) => (this.#store = store));
    // not reported: a failed load fails sdk.start() with its error
    this.#later.catch(() => undefined);
  }

  /** The outbox's scheduled sends, once it is there (a store without them: SCHEDULE_UNSUPPORTED). */
  readonly schedule: ScheduleStore = {
    nextDue: (client) => this.#run((store) => scheduleOf(store).nextDue(client)),
    releaseDue: (client, now, limit) =>
      this.#run((store) => scheduleOf(store).releaseDue(client, now, limit)),
    cancel: (id, now) => this.#run((store) => scheduleOf(store).cancel(id, now)),
    reschedule: (id, sendAt, now) =>
      this.#run((store) => scheduleOf(store).reschedule(id, sendAt, now)),
  };

  /** Runs `op` on the outbox: at once when it is there and nothing waits, else in turn. */
  #run<T>(op: (store: OutboxStore) => T | Promise<T>): Promise<T> {
    const store = this.#store;
    // the executor runs `op` now, and turns what it throws into a rejection
    if (store && this.#queued === 0) return new Promise<T>((resolve) => resolve(op(store)));
    this.#queued++;
    return this.#later.then(op).finally(() => this.#queued--);
  }

  append(entry: OutboxEntry): Promise<Appended> {
    return this.#run((store) => store.append(entry));
  }

  update(id: string, change: OutboxChange, seq?: number): void {
    // a failed load has no outbox to write to: sdk.start() fails with its error
    // not reported: a failed load fails sdk.start() with its error
    this.#run((store) => store.update(id, change, seq)).catch(() => undefined);
  }

  defer(id: string, deferral: Deferral, seq?: number): void {
    // not reported: a failed load has no outbox to write to (sdk.start() fails with its error)
    this.#run((store) => store.defer(id, deferral, seq)).catch(() => undefined);
  }

  committed(): Promise<void> {
    return this.#run((store) => store.committed());
  }

  get(id: string): Promise<TrackedSend | undefined> {
    return this.#run((store) => store.get(id));
  }

  list(query: ListQuery): Promise<ListPage> {
    return this.#run((store) => store.list(query));
  }

  open(client: string): Promise<OpenEntry[]> {
    return this.#run((store) => store.open(client));
  }

  openPage(query: WaitingQuery, limit: number): Promise<OpenEntry[]> {
    return this.#run((store) => store.openPage(query, limit));
  }

  countOpen(client: string): Promise<Record<SendPriority, number>> {
    return this.#run((store) => store.countOpen(client));
  }

  failOpen(query: WaitingQuery, failure: BulkFailure): Promise<TrackedSend[]> {
    return this.#run((store) => store.failOpen(query, failure));
  }

  media(id: string): Promise<Buffer | undefined> {
    return this.#run((store) => store.media(id));
  }

  prune(policy: RetentionPolicy, now: number): Promise<number> {
    return this.#run((store) => store.prune(policy, now));
  }

  watch(client: string, listener: (notice: AppendedNotice) => void): () => void {
    let stop: (() => void) | undefined;
    let stopped = false;
    // not reported: a failed load fails sdk.start() with its error
    this.#run((store) => {
      if (!stopped) stop = store.watch?.(client, listener);
    }).catch(() => undefined);
    return () => {
      stopped = true;
      stop?.();
    };
  }

  /** Closes the outbox once it is there (a load that failed has nothing to close). */
  async close(): Promise<void> {
    // not reported: a load that failed has nothing to close (sdk.start() failed with it)
    const store = await this.#later.catch(() => undefined);
    await store?.close();
  }
}

function scheduleOf(store: OutboxStore): ScheduleStore {
  if (store.schedule) return store.schedule;
  throw new WakitError('SCHEDULE_UNSUPPORTED', `The ${store.kind} outbox has no scheduled sends`);
}
