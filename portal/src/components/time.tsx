// A point in time: the short form on screen, the exact time (with seconds) on hover.
import { formatDate, formatDateTime, formatRelative } from '../lib/format';

export function Time({ at, style = 'date' }: { at: number; style?: 'date' | 'relative' }) {
  const exact = formatDateTime(at);
  return (
    <time dateTime={new Date(at).toISOString()} title={exact}>
      {style === 'date' ? formatDate(at) : formatRelative(at)}
    </time>
  );
}
