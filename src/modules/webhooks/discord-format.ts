// The `discord` format: a Discord webhook message (one embed) that a channel shows as is.
// Discord's limits: 256-character titles, 25 fields, 1024-character field values.

const COLORS: Record<string, number> = { create: 0x2e7d32, reuse: 0x2e7d32, succeeded: 0x2e7d32, reinstate: 0x2e7d32, revoke: 0xc62828, delete: 0xc62828, failed: 0xc62828, reject: 0xc62828, disable: 0xc62828, expiring: 0xef6c00 };
const DEFAULT_COLOR = 0x1565c0;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export function discordMessage(type: string, event: { timestamp?: string; data?: unknown }) {
  const data = event.data && typeof event.data === 'object' && !Array.isArray(event.data) ? (event.data as Record<string, unknown>) : {};
  const fields = Object.entries(data)
    .filter(([, value]) => value !== null && value !== undefined && shown(value) !== '' && shown(value) !== '[]' && shown(value) !== '{}')
    .slice(0, 25)
    .map(([name, value]) => ({ name: clip(name, 256), value: clip(shown(value), 1024), inline: shown(value).length <= 40 }));
  return {
    embeds: [
      {
        title: clip(type, 256),
        color: COLORS[type.slice(type.lastIndexOf('.') + 1)] ?? DEFAULT_COLOR,
        timestamp: event.timestamp,
        fields,
      },
    ],
  };
}
