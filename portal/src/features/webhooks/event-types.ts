// The event types an endpoint subscribes to, grouped for the picker and summed up for
// the list. The types come from GET /webhook-endpoints/event-types; a type the portal
// does not know a group for still shows, under its own prefix.

/** Subscribes to every type, those added later included. */
export const ALL_EVENTS = '*';

export interface EventGroup {
  /** The part of the type before the first dot: `licenses` for `licenses.slot.bind`. */
  id: string;
  label: string;
  types: string[];
}

// Business records first, then the service's own administration.
const GROUP_LABELS: [string, string][] = [
  ['licenses', 'Licenses'],
  ['customers', 'Customers'],
  ['products', 'Products'],
  ['orders', 'Orders'],
  ['marketplace', 'Marketplace'],
  ['staff', 'Staff'],
  ['roles', 'Roles'],
  ['apiToken', 'API tokens'],
  ['registrationKey', 'Registration keys'],
  ['signingKey', 'Signing keys'],
  ['webhookEndpoint', 'Webhook endpoints'],
];
const KNOWN_ORDER = new Map(GROUP_LABELS.map(([id], index) => [id, index]));
const LABELS = new Map(GROUP_LABELS);

const prefixOf = (type: string) => type.split('.', 1)[0]!;

/** Types grouped by prefix, known groups in a fixed order, others after them alphabetically; types keep their order. */
export function groupEventTypes(types: readonly string[]): EventGroup[] {
  const groups = new Map<string, EventGroup>();
  for (const type of new Set(types)) {
    if (type === ALL_EVENTS) continue;
    const id = prefixOf(type);
    const group = groups.get(id) ?? { id, label: LABELS.get(id) ?? id, types: [] };
    group.types.push(type);
    groups.set(id, group);
  }
  const rank = (id: string) => KNOWN_ORDER.get(id) ?? KNOWN_ORDER.size;
  return [...groups.values()].sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}

export const subscribesToAll = (events: readonly string[]) => events.includes(ALL_EVENTS);

/** For a table cell: "All events", or the first few types and how many more. */
export function eventsSummary(events: readonly string[], shown = 3): { types: string[]; more: number; all: boolean } {
  if (subscribesToAll(events)) return { types: [], more: 0, all: true };
  return { types: events.slice(0, shown), more: Math.max(0, events.length - shown), all: false };
}
