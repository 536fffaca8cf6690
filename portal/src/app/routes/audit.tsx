// The audit log, newest first, filterable by event name.
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { TextField } from '../../components/field';
import { useAuditEntries } from '../../features/audit/api/get-audit-entries';
import { AuditTable } from '../../features/audit/components/audit-table';
import { EVENT_NAMES } from '../../features/audit/event-names';

const PAGE_LIMIT = 200;

export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const name = params.get('name') ?? '';
  const [draft, setDraft] = useState(name);
  const entries = useAuditEntries({ name: name || undefined, limit: PAGE_LIMIT });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams(draft.trim() ? { name: draft.trim() } : {});
  };

  return (
    <>
      <PageHeader title="Audit log" />
      <form className="form form-inline filters" onSubmit={submit} role="search">
        <TextField label="Event name" list="event-names" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="e.g. customers.create" />
        <datalist id="event-names">
          {EVENT_NAMES.map((event) => (
            <option key={event} value={event} />
          ))}
        </datalist>
        <button type="submit" className="button button-primary">
          Filter
        </button>
        {name ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              setDraft('');
              setParams({});
            }}
          >
            Clear
          </button>
        ) : null}
      </form>
      <QueryState query={entries} empty={<EmptyState title={name ? `No ${name} entries.` : 'No audit entries yet.'} />}>
        {(list) => (
          <>
            <AuditTable entries={list} />
            {list.length === PAGE_LIMIT ? <p className="muted">Showing the latest {PAGE_LIMIT} entries.</p> : null}
          </>
        )}
      </QueryState>
    </>
  );
}
