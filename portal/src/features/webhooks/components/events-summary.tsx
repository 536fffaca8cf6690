// The types an endpoint receives, short enough for a table cell.
import { eventsSummary } from '../event-types';

export function EventsSummary({ events }: { events: string[] }) {
  const summary = eventsSummary(events);
  if (summary.all) return <span className="chip">All events</span>;
  return (
    <>
      {summary.types.map((type) => (
        <span key={type} className="chip">
          <code>{type}</code>
        </span>
      ))}
      {summary.more > 0 ? <span className="muted">and {summary.more} more</span> : null}
    </>
  );
}
