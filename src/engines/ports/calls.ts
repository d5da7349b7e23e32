/** The calls part of the Engine port: incoming calls (the `call` event) and rejecting them. */

/** An incoming call, as plain data. */
export interface CallData {
  /** WhatsApp's call id (what `rejectCall` takes). */
  id: string;
  /** The caller: `<digits>@c.us` or `<digits>@lid`. */
  from: string;
  video: boolean;
  /** A group call. */
  group: boolean;
  /** Unix seconds when the call was offered. */
  timestamp: number;
}

export interface CallEngine {
  /**
   * Rejects an incoming call that is still ringing. CALL_NOT_FOUND when the id is unknown or the
   * call is over (answered elsewhere, hung up, already rejected).
   */
  rejectCall(callId: string): Promise<void>;
}
