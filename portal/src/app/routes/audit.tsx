// The audit log, newest first: filter by event (one name, or every event of a kind),
// actor and date range; paged with the total; each entry says which record changed.
import { useState, type FormEvent } from 'react';
import { SelectField, TextField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useAuditEventNames, useAuditPage } from '../../features/audit/api/get-audit-entries';
import { AuditTable } from '../../features/audit/components/audit-table';
import { EVENT_NAMES } from '../../features/audit/event-names';
import { useListParams } from '../../hooks/use-list-params';
import { pageQuery } from '../../lib/pagination';

const PAGE_SIZE = 50;
/** An event choice ending in ".*" is a prefix: every event of that kind. */
const PREFIX_MARK = '.*';

/** Local midnight of a yyyy-mm-dd date input, plus `days`. */
function localDay(value: string, days = 0): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + days).getTime();
}

export function AuditPage() {
  const list = useListParams(['createdAt'], ['event', 'actor', 'from', 'to']);
  const { event, actor, from, to } = list.filters as Record<'event' | 'actor' | 'from' | 'to', string>;
  const [draft, setDraft] = useState({ event, actor, from, to });
  const recorded = useAuditEventNames();
  const names = [...new Set([...EVENT_NAMES, ...(recorded.data ?? [])])].sort();
  const kinds = [...new Set(names.map((n) => n.split('.')[0]!))];

  const isPrefix = event.endsWith(PREFIX_MARK);
  const entries = useAuditPage({
    name: event && !isPrefix ? event : undefined,
    namePrefix: isPrefix ? event.slice(0, -1) : undefined,
    actor: actor || undefined,
    since: localDay(from),
    until: localDay(to, 1),
    ...pageQuery(list.page, PAGE_SIZE),
  });
  const filtered = Boolean(event || actor || from || to);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    list.update({ filters: { ...draft, actor: draft.actor.trim() } });
  };
  const clear = () => {
    const empty = { event: '', actor: '', from: '', to: '' };
    setDraft(empty);
    list.update({ filters: empty });
  };

  return (
    <>
      <PageHeader title="Audit log" />
      <form className="form form-inline filters" onSubmit={submit} role="search">
        <SelectField label="Event" value={draft.event} onChange={(e) => setDraft((d) => ({ ...d, event: e.target.value }))}>
          <option value="">Any event</option>
          <optgroup label="Every event of a kind">
            {kinds.map((kind) => (
              <option key={kind} value={`${kind}${PREFIX_MARK}`}>
                {kind}.* (all)
              </option>
            ))}
          </optgroup>
          <optgroup label="One event">
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </optgroup>
        </SelectField>
        <TextField label="By (username)" value={draft.actor} onChange={(e) => setDraft((d) => ({ ...d, actor: e.target.value }))} />
        <TextField label="From" type="date" value={draft.from} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
        <TextField label="To" type="date" value={draft.to} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
        <button type="submit" className="button button-primary">
          Filter
        </button>
        {filtered ? (
          <button type="button" className="button" onClick={clear}>
            Clear
          </button>
        ) : null}
      </form>
      <QueryState
        query={entries}
        empty={<EmptyState title={filtered ? 'No entry matches these filters.' : 'No audit entries yet.'} />}
        isEmpty={(page) => page.total === 0}
      >
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more entries." /> : <AuditTable entries={records} />}
            <Pagination page={list.page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={list.setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
