/**
 * The account area of the Engine port (`engine.ops.account`): what an engine may do about linking
 * and about itself besides the lifecycle every engine has. Both are optional in kind: an engine
 * that cannot pair by phone number throws NOT_SUPPORTED, one without probes leaves `checkHealth`
 * out.
 */
import type { EngineProbe } from '../health.js';

export interface AccountOps {
  /**
   * Link by phone number instead of QR, while the engine waits to be linked (INVALID_STATE
   * otherwise); resolves to the code the person types on the phone. NOT_SUPPORTED where the engine
   * cannot.
   */
  requestPairingCode(phoneNumber: string): Promise<string>;
  /**
   * Probes what the engine can still do on the WhatsApp Web build it runs (engine health,
   * src/engines/health.ts). Cheap: nothing is sent. Rejects when it cannot look (not connected,
   * a reload under way): no verdict. Engines without probes leave it out.
   */
  checkHealth?(): Promise<EngineProbe>;
}
