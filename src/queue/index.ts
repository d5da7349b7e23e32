export { OutboundQueue } from './outbound-queue.js';
export type {
  DrainResult,
  OutboundQueueOptions,
  QueueJob,
  QueueStats,
  SendHandle,
  SendPriority,
  SendResult,
  TrackedSend,
  TrackingStatus,
  UpdateListener,
} from './types.js';
