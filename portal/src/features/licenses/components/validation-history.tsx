// Validation attempts, newest first, with the reason of each outcome; the page may add
// actions to each row (the blocklist's "Block this HWID / IP").
import { useState, type ReactNode } from 'react';
import { Table } from '../../../components/table';
import { formatDateTime } from '../../../lib/format';
import type { ValidationAttempt } from '../../../types/api';
import { newestFirst } from '../license-stats';
import { reasonLabel } from '../reasons';

const INITIAL_ROWS = 50;

export function ValidationHistory({
  attempts,
  revokedReason,
  rowActions,
  toolbar,
}: {
  attempts: ValidationAttempt[];
  /** The license's, for attempts refused as REVOKED. */
  revokedReason?: string | null;
  rowActions?: (attempt: ValidationAttempt) => ReactNode;
  /** Shown above the table (e.g. where a block applies). */
  toolbar?: ReactNode;
}) {
  const [showAll, setShowAll] = useState(false);
  const ordered = newestFirst(attempts);
  const shown = showAll ? ordered : ordered.slice(0, INITIAL_ROWS);

  return (
    <section className="card">
      <h2>Validation history</h2>
      {ordered.length > 0 ? toolbar : null}
      {ordered.length === 0 ? (
        <p className="muted">No validation attempts yet.</p>
      ) : (
        <>
          <Table
            caption="Validation attempts, newest first"
            head={
              <tr>
                <th scope="col">When</th>
                <th scope="col">Result</th>
                <th scope="col">Reason</th>
                <th scope="col">IP</th>
                <th scope="col">HWID</th>
                {rowActions ? <th scope="col">Actions</th> : null}
              </tr>
            }
          >
            {shown.map((attempt, index) => (
              <tr key={`${attempt.timestampEpochMillis}-${index}`} data-testid="validation-attempt">
                <td className="nowrap">{formatDateTime(attempt.timestampEpochMillis)}</td>
                <td>
                  <span className={`badge ${attempt.successful ? 'badge-ok' : 'badge-bad'}`}>
                    {attempt.successful ? (attempt.reason === 'GRACE' ? 'Accepted (grace)' : 'Accepted') : 'Refused'}
                  </span>
                </td>
                <td>{reasonLabel(attempt.reason, attempt.successful, revokedReason)}</td>
                <td>
                  <code>{attempt.ip}</code>
                </td>
                <td>
                  <code>{attempt.hwid}</code>
                </td>
                {rowActions ? <td className="nowrap">{rowActions(attempt)}</td> : null}
              </tr>
            ))}
          </Table>
          {ordered.length > INITIAL_ROWS ? (
            <button type="button" className="button" onClick={() => setShowAll((all) => !all)}>
              {showAll ? `Show the latest ${INITIAL_ROWS}` : `Show all ${ordered.length}`}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
