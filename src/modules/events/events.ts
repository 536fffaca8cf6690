// An event as it is queued: its id (the `webhook-id` of every attempt), its type and the
// standard-format body, fixed at the moment of the change it reports.
import type { AuditEntriesTable } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { withoutDiscordTokens } from '../../lib/discord-webhook-url.js';
import { clock } from '../../lib/clock.js';

export interface OutboundEvent {
  id: string;
  type: string;
  createdAt: number;
  /** `{"type", "timestamp", "data"}` as sent in the standard format */
  body: string;
}

/** `dataJson` is the already-serialised `data`: an audit entry's is stored as JSON text. */
function eventOfJson(id: string, type: string, createdAt: number, dataJson: string): OutboundEvent {
  const body = `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(new Date(createdAt).toISOString())},"data":${dataJson}}`;
  return { id, type, createdAt, body };
}

export const newEvent = (type: string, data: unknown, createdAt = clock.now()): OutboundEvent =>
  eventOfJson(newId(), type, createdAt, JSON.stringify(data));

/**
 * An audited change's event: the same fact, the same id; a Discord webhook URL's token is
 * left out, as from the audit log (a `*` endpoint would otherwise post another's token to its channel).
 */
export const eventOfAudit = (entry: AuditEntriesTable): OutboundEvent =>
  eventOfJson(entry.id, entry.name, entry.timestamp, withoutDiscordTokens(entry.data));
