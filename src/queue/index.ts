export { OutboundQueue } from './outbound-queue.js';
export type { GateAnswer, SendGate } from './send-gate.js';
export type { OutboundQueueOptions } from './queue-options.js';
export type {
  BacklogSource,
  DrainResult,
  PagedJob,
  QueueJob,
  QueueStats,
  SendHandle,
  SendPriority,
  SendResult,
  TrackedSend,
  TrackingStatus,
  UpdateListener,
} from './types.js';
