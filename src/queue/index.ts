export { OutboundQueue } from './outbound-queue.js';
export type { GateAnswer, SendGate } from './send-gate.js';
export type {
  BacklogSource,
  DrainResult,
  OutboundQueueOptions,
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
