// Customers: search by name or email, paged.
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { TextField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useCustomers } from '../../features/customers/api/get-customers';
import { CustomersTable } from '../../features/customers/components/customers-table';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';

const PAGE_SIZE = 20;

export function CustomersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const email = params.get('email') ?? '';
  const page = Number(params.get('page') ?? '0') || 0;
  const [draft, setDraft] = useState({ q, email });
  const customers = useCustomers({ q: q || undefined, email: email || undefined, ...pageQuery(page, PAGE_SIZE) });
  const canWrite = useCan('customers:write');

  const update = (next: { q?: string; email?: string; page?: number }) => {
    const merged = { q, email, page, ...next };
    const search: Record<string, string> = {};
    if (merged.q) search.q = merged.q;
    if (merged.email) search.email = merged.email;
    if (merged.page) search.page = String(merged.page);
    setParams(search);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update({ q: draft.q.trim(), email: draft.email.trim(), page: 0 });
  };

  return (
    <>
      <PageHeader
        title="Customers"
        actions={
          canWrite ? (
            <Link className="button button-primary" to="/customers/new">
              New customer
            </Link>
          ) : null
        }
      />
      <form className="form form-inline filters" role="search" onSubmit={submit}>
        <TextField label="Name contains" type="search" value={draft.q} onChange={(e) => setDraft((d) => ({ ...d, q: e.target.value }))} />
        <TextField label="Email" type="search" value={draft.email} onChange={(e) => setDraft((d) => ({ ...d, email: e.target.value }))} />
        <button type="submit" className="button button-primary">
          Search
        </button>
        {q || email ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              setDraft({ q: '', email: '' });
              setParams({});
            }}
          >
            Clear
          </button>
        ) : null}
      </form>
      <QueryState
        query={customers}
        empty={<EmptyState title={q || email ? 'No customer matches the search.' : 'No customers yet.'} />}
        isEmpty={(list) => list.total === 0}
      >
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more customers." /> : <CustomersTable customers={records} />}
            <Pagination page={page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={(next) => update({ page: next })} />
          </>
        )}
      </QueryState>
    </>
  );
}
