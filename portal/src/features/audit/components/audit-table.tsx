// Audit entries newest first, each with its data snapshot readable on demand.
import { Link } from 'react-router';
import { Table } from '../../../components/table';
import { Time } from '../../../components/time';
import { formatDateTime, prettyJson } from '../../../lib/format';
import type { AuditEntry } from '../../../types/api';
import { auditSummary } from '../summary';

export function AuditTable({ entries, compact = false }: { entries: AuditEntry[]; compact?: boolean }) {
  return (
    <Table
      dense={compact}
      caption="Audit entries"
      head={
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">Record</th>
          <th scope="col">By</th>
          {compact ? null : <th scope="col">Data</th>}
        </tr>
      }
    >
      {entries.map((entry) => {
        const summary = auditSummary(entry);
        return (
        <tr key={entry.id} data-testid="audit-row">
          <td className="nowrap">{compact ? <Time at={entry.timestampEpochMillis} style="relative" /> : formatDateTime(entry.timestampEpochMillis)}</td>
          <td>
            <code>{entry.name}</code>
          </td>
          <td data-testid="audit-summary">{summary.to ? <Link to={summary.to}>{summary.text}</Link> : summary.text}</td>
          <td>{entry.performedBy}</td>
          {compact ? null : (
            <td>
              <details>
                <summary>Show snapshot</summary>
                <pre className="json">{prettyJson(entry.data)}</pre>
              </details>
            </td>
          )}
        </tr>
        );
      })}
    </Table>
  );
}
