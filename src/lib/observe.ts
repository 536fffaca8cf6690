// Points where the service reports what happened, for whoever listens (the metrics
// module). node:diagnostics_channel keeps the code that reports free of any metrics
// dependency, and publishing without a subscriber costs a flag check.
import { channel } from 'node:diagnostics_channel';

export interface ValidationDecided {
  /** VALID, PRODUCT_MISMATCH, EXPIRED, IP_LIMIT_REACHED, HWID_LIMIT_REACHED or UNKNOWN_LICENSE */
  reason: string;
  valid: boolean;
}

export interface BatchCommitted {
  size: number;
  seconds: number;
}

export interface SlotsReleased {
  /** inactive (a validation made room) or self (POST /licenses/release) */
  reason: 'inactive' | 'self';
  count: number;
}

/** A release download finished or was cut: how many bytes were sent, of a stamped jar or as stored. */
export interface ReleaseSent {
  stamped: boolean;
  bytes: number;
}

const releaseChannel = channel('licensing:release-download');
const validationChannel = channel('licensing:validation');
const slotReleaseChannel = channel('licensing:slot-release');
const groupCommitChannel = channel('licensing:group-commit');

/** One validation decided (its attempt is about to be recorded, or the license is unknown). */
export function reportValidation(reason: string, valid: boolean): void {
  if (validationChannel.hasSubscribers) validationChannel.publish({ reason, valid } satisfies ValidationDecided);
}

/** Bindings released, once the transaction that released them has committed. */
export function reportSlotRelease(reason: SlotsReleased['reason'], count: number): void {
  if (count > 0 && slotReleaseChannel.hasSubscribers) slotReleaseChannel.publish({ reason, count } satisfies SlotsReleased);
}

export function onSlotRelease(listener: (event: SlotsReleased) => void): () => void {
  const handler = (message: unknown) => listener(message as SlotsReleased);
  slotReleaseChannel.subscribe(handler);
  return () => slotReleaseChannel.unsubscribe(handler);
}

export const groupCommitObserved = (): boolean => groupCommitChannel.hasSubscribers;

/** One group-commit batch settled: how many entries it carried and how long it took. */
export function reportBatch(size: number, seconds: number): void {
  groupCommitChannel.publish({ size, seconds } satisfies BatchCommitted);
}

export function onValidation(listener: (event: ValidationDecided) => void): () => void {
  const handler = (message: unknown) => listener(message as ValidationDecided);
  validationChannel.subscribe(handler);
  return () => validationChannel.unsubscribe(handler);
}

export function onBatch(listener: (event: BatchCommitted) => void): () => void {
  const handler = (message: unknown) => listener(message as BatchCommitted);
  groupCommitChannel.subscribe(handler);
  return () => groupCommitChannel.unsubscribe(handler);
}

export interface WebhookAttempted {
  /** delivered, retry (another attempt is scheduled) or failed (given up) */
  outcome: 'delivered' | 'retry' | 'failed';
}

const webhookChannel = channel('licensing:webhook-delivery');

/** One outbound webhook attempt recorded. */
export function reportWebhookAttempt(outcome: WebhookAttempted['outcome']): void {
  if (webhookChannel.hasSubscribers) webhookChannel.publish({ outcome } satisfies WebhookAttempted);
}

export function onWebhookAttempt(listener: (event: WebhookAttempted) => void): () => void {
  const handler = (message: unknown) => listener(message as WebhookAttempted);
  webhookChannel.subscribe(handler);
  return () => webhookChannel.unsubscribe(handler);
}

/** One release download ended (completely or not). */
export function reportReleaseSent(stamped: boolean, bytes: number): void {
  if (releaseChannel.hasSubscribers) releaseChannel.publish({ stamped, bytes } satisfies ReleaseSent);
}

export function onReleaseSent(listener: (event: ReleaseSent) => void): () => void {
  const handler = (message: unknown) => listener(message as ReleaseSent);
  releaseChannel.subscribe(handler);
  return () => releaseChannel.unsubscribe(handler);
}
