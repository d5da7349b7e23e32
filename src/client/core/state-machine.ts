import { WakitError } from '../../errors/index.js';
import type { ClientState } from '../types.js';

/** Allowed transitions of the client states (STOPPED is reachable from anywhere by stop()). */
const TRANSITIONS: Record<ClientState, readonly ClientState[]> = {
  STOPPED: ['STARTING'],
  STARTING: ['SCAN_QR', 'AUTHENTICATED', 'DISCONNECTED', 'FAILED', 'STOPPED'],
  SCAN_QR: ['AUTHENTICATED', 'FAILED', 'STOPPED', 'DISCONNECTED'],
  AUTHENTICATED: ['READY', 'DISCONNECTED', 'FAILED', 'STOPPED'],
  READY: ['DISCONNECTED', 'FAILED', 'STOPPED'],
  DISCONNECTED: ['STARTING', 'FAILED', 'STOPPED'],
  FAILED: ['STARTING', 'STOPPED'],
};

export function canTransition(from: ClientState, to: ClientState): boolean {
  return TRANSITIONS[from].includes(to);
}

export class StateMachine {
  private current: ClientState = 'STOPPED';
  private since = new Date();

  constructor(private readonly onChange: (from: ClientState, to: ClientState, at: Date) => void) {}

  get state(): ClientState {
    return this.current;
  }

  get enteredAt(): Date {
    return this.since;
  }

  /** Moves to `to`; throws INVALID_STATE for a transition the table does not allow. */
  transition(to: ClientState): void {
    const from = this.current;
    if (from === to) return;
    if (!canTransition(from, to)) {
      throw new WakitError('INVALID_STATE', `Cannot go from ${from} to ${to}`, {
        details: { from, to },
      });
    }
    this.current = to;
    this.since = new Date();
    this.onChange(from, to, this.since);
  }
}
