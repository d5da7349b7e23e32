/**
 * The calls area of the Engine port (`engine.ops.calls`): incoming calls (the `call` event) and
 * rejecting them.
 */

/** An incoming call, as plain data. */
export interface CallData {
  /** WhatsApp's call id (what `reject` takes). */
  id: string;
  /** The caller: `<digits>@c.us` or `<digits>@lid`. */
  from: string;
  video: boolean;
  /** A group call. */
  group: boolean;
  /** Unix seconds when the call was offered. */
  timestamp: number;
}

/** The calls events (part of `EngineEvents`). */
export interface CallEvents {
  /** Someone calls the account (voice or video, private or group). */
  call: [call: CallData];
}

export interface CallOps {
  /**
   * Rejects an incoming call that is still ringing. CALL_NOT_FOUND when the id is unknown or the
   * call is over (answered elsewhere, hung up, already rejected).
   */
  reject(callId: string): Promise<void>;
}
