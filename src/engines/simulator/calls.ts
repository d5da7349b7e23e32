/**
 * Calls on the virtual network: a phone calls a person or a group it is in; every linked device
 * of each callee sees the offer (`call` event) and may reject it. A call rings until the caller
 * ends it or, for a private call, the callee rejects it; in a group call each member rejects only
 * for themselves. Callers a callee has blocked do not reach them.
 */
import { WakitError } from '../../errors/index.js';
import type { CallData } from '../ports/calls.js';
import type { SimAccount } from './account.js';
import { GROUP_SUFFIX, LID_SUFFIX } from './ids.js';

export type SimCallState = 'ringing' | 'rejected' | 'ended';

/** A call a phone placed (`phone.call(...)`). */
export interface SimCall {
  readonly id: string;
  /** The caller's `@c.us` id. */
  readonly from: string;
  /** The person or group called. */
  readonly to: string;
  readonly video: boolean;
  readonly group: boolean;
  readonly state: SimCallState;
  /** `@c.us` ids of the callees that rejected it. */
  readonly rejectedBy: ReadonlySet<string>;
  /** The caller hangs up. */
  end(): void;
  /** Resolves with the state once the call stops ringing; TIMEOUT after `timeoutMs` (5,000). */
  waitUntilSettled(timeoutMs?: number): Promise<Exclude<SimCallState, 'ringing'>>;
}

/** Settled calls kept for look-ups (rejecting an ended call is CALL_NOT_FOUND either way). */
const SETTLED_KEPT = 1_000;

class SimCallImpl implements SimCall {
  state: SimCallState = 'ringing';
  readonly rejectedBy = new Set<string>();
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly id: string,
    readonly caller: SimAccount,
    readonly to: string,
    readonly video: boolean,
    readonly group: boolean,
    readonly timestamp: number,
    /** Who it rang. */
    readonly callees: ReadonlySet<SimAccount>,
  ) {}

  get from(): string {
    return this.caller.id;
  }

  end(): void {
    this.settle('ended');
  }

  settle(state: 'rejected' | 'ended'): void {
    if (this.state !== 'ringing') return;
    this.state = state;
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }

  waitUntilSettled(timeoutMs = 5_000): Promise<'rejected' | 'ended'> {
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        resolve(this.state as 'rejected' | 'ended');
      };
      if (this.state !== 'ringing') {
        resolve(this.state);
        return;
      }
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        reject(new WakitError('TIMEOUT', `call ${this.id} still rings after ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref?.();
      this.waiters.add(done);
    });
  }

  /** What a callee's engine emits. */
  data(): CallData {
    return {
      id: this.id,
      from: this.caller.lidAddressed ? this.caller.lid : this.caller.id,
      video: this.video,
      group: this.group,
      timestamp: this.timestamp,
    };
  }
}

/** What placing a call needs of the network. */
export interface SimCallDirectory {
  person(id: string): SimAccount | undefined;
  /** Member `@c.us` ids of a group, or undefined when there is no such group. */
  groupMembers(id: string): ReadonlySet<string> | undefined;
  random(): number;
}

export class SimCalls {
  private readonly calls = new Map<string, SimCallImpl>();

  constructor(private readonly directory: SimCallDirectory) {}

  /** `caller` calls a person (`@c.us`, `@lid` or a number) or a group it is a member of. */
  place(caller: SimAccount, to: string, opts: { video?: boolean } = {}): SimCall {
    const callees = new Set<SimAccount>();
    const group = to.endsWith(GROUP_SUFFIX);
    let target: string;
    if (group) {
      const members = this.directory.groupMembers(to);
      if (!members) throw new WakitError('CHAT_NOT_FOUND', `group ${to} does not exist`);
      if (!members.has(caller.id)) {
        throw new WakitError('PERMISSION_DENIED', `${caller.id} is not a member of ${to}`);
      }
      for (const member of members) {
        const account = this.directory.person(member);
        if (account && account !== caller) callees.add(account);
      }
      target = to;
    } else {
      const id = to.endsWith('@c.us') || to.endsWith(LID_SUFFIX) ? to : `${to}@c.us`;
      const callee = this.directory.person(id);
      if (!callee) throw new WakitError('CHAT_NOT_FOUND', `${to} is not on WhatsApp`);
      if (callee === caller)
        throw new WakitError('VALIDATION_FAILED', 'a phone cannot call itself');
      callees.add(callee);
      target = callee.id;
    }
    const call = new SimCallImpl(
      this.newId(),
      caller,
      target,
      opts.video ?? false,
      group,
      Math.floor(Date.now() / 1000),
      callees,
    );
    this.remember(call);
    const data = call.data();
    for (const callee of callees) {
      if (callee.book.blocked.has(caller.id)) continue;
      for (const device of callee.devices) device.receiveCall(data);
    }
    return call;
  }

  /** `callee` rejects a ringing call offered to it; CALL_NOT_FOUND otherwise. */
  reject(callee: SimAccount, callId: string): void {
    const call = this.calls.get(callId);
    if (
      !call ||
      call.state !== 'ringing' ||
      !call.callees.has(callee) ||
      callee.book.blocked.has(call.caller.id) ||
      call.rejectedBy.has(callee.id)
    ) {
      throw new WakitError(
        'CALL_NOT_FOUND',
        `no ringing call ${callId} for ${callee.id} (unknown, or over)`,
        { details: { callId } },
      );
    }
    call.rejectedBy.add(callee.id);
    const reached = [...call.callees].filter((c) => !c.book.blocked.has(call.caller.id));
    if (!call.group || reached.every((c) => call.rejectedBy.has(c.id))) call.settle('rejected');
  }

  private remember(call: SimCallImpl): void {
    this.calls.set(call.id, call);
    if (this.calls.size <= 2 * SETTLED_KEPT) return;
    for (const [id, old] of this.calls) {
      if (this.calls.size <= SETTLED_KEPT) break;
      if (old.state !== 'ringing') this.calls.delete(id);
    }
  }

  /** 32 upper-case hex digits, like WhatsApp's call ids. */
  private newId(): string {
    let id = '';
    for (let i = 0; i < 32; i++) id += Math.floor(this.directory.random() * 16).toString(16);
    return id.toUpperCase();
  }
}
