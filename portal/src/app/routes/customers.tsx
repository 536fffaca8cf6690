// Customers: search by name or email (both partial), sortable, paged; newest first.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { TextField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useCustomers } from '../../features/customers/api/get-customers';
import { CustomersTable } from '../../features/customers/components/customers-table';
import { useListParams } from '../../hooks/use-list-params';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';

const PAGE_SIZE = 20;
const SORTABLE = ['createdAt', 'name', 'email'];

export function CustomersPage() {
  const list = useListParams(SORTABLE, ['q', 'email']);
  const { q, email } = list.filters as { q: string; email: string };
  const [draft, setDraft] = useState({ q, email });
  const customers = useCustomers({ q: q || undefined, email: email || undefined, ...list.sortQuery, ...pageQuery(list.page, PAGE_SIZE) });
  const canWrite = useCan('customers:write');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    list.update({ filters: { q: draft.q.trim(), email: draft.email.trim() } });
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
        <TextField label="Email contains" type="search" value={draft.email} onChange={(e) => setDraft((d) => ({ ...d, email: e.target.value }))} />
        <button type="submit" className="button button-primary">
          Search
        </button>
        {q || email ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              setDraft({ q: '', email: '' });
              list.update({ filters: { q: '', email: '' } });
            }}
          >
            Clear
          </button>
        ) : null}
      </form>
      <QueryState
        query={customers}
        empty={<EmptyState title={q || email ? 'No customer matches the search.' : 'No customers yet.'} />}
        isEmpty={(page) => page.total === 0}
      >
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more customers." /> : <CustomersTable customers={records} sorting={list} />}
            <Pagination page={list.page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={list.setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
