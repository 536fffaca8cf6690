// The events of a validation (DECISIONS.md): its outcome, and each slot it binds. Not audit
// entries: they are queued only while some endpoint subscribes (see subscriptions.ts).
import type { SlotKind, ValidationRequest } from './validation.types.js';
import { newEvent, type OutboundEvent } from '../events/events.js';

export const validationEventType = (valid: boolean) => (valid ? 'licenses.validate.succeeded' : 'licenses.validate.failed');

export const SLOT_BIND_EVENT_TYPE = 'licenses.slot.bind';

export const validationEvent = (req: ValidationRequest, now: number, outcome: { valid: boolean; reason: string }): OutboundEvent =>
  newEvent(
    validationEventType(outcome.valid),
    { licenseId: req.licenseId, productId: req.productId, hwid: req.hwid, ip: req.ip, valid: outcome.valid, reason: outcome.reason, timestampEpochMillis: now },
    now,
  );

export const slotBindEvent = (req: ValidationRequest, kind: SlotKind, now: number): OutboundEvent =>
  newEvent(SLOT_BIND_EVENT_TYPE, { licenseId: req.licenseId, productId: req.productId, kind, value: req[kind], timestampEpochMillis: now }, now);
