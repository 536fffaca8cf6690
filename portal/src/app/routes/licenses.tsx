// Licenses, filterable by customer, product, part of the key, status (several at once) and
// trial; sortable and
// paged, newest first (filters, sort and page kept in the address). A page loads only
// its own licenses' histories.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { SelectField, TextField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useLicenses } from '../../features/licenses/api/get-licenses';
import { LicensesTable } from '../../features/licenses/components/licenses-table';
import { useListParams } from '../../hooks/use-list-params';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';
import { CustomerProductFilters, type FilterKey } from '../customer-product-filters';
import { useNames } from '../use-names';
import { LICENSE_STATUSES, STATUS_NAMES, parseStatuses } from '../../features/licenses/license-stats';

const PAGE_SIZE = 20;
const SORTABLE = ['createdAt', 'expiresAt'];

export function LicensesPage() {
  const list = useListParams(SORTABLE, ['customerId', 'productId', 'key', 'status', 'trial', 'sharing']);
  const { customerId, productId, key, status, trial, sharing } = list.filters as Record<'customerId' | 'productId' | 'key' | 'status' | 'trial' | 'sharing', string>;
  const statuses = parseStatuses(status);
  const [keyDraft, setKeyDraft] = useState(key);
  const licenses = useLicenses({
    customerId: customerId || undefined,
    productId: productId || undefined,
    key: key || undefined,
    status: statuses.length > 0 ? statuses.join(',') : undefined,
    trial: trial === 'true' ? true : trial === 'false' ? false : undefined,
    sharing: sharing === 'suspected' ? 'suspected' : undefined,
    ...list.sortQuery,
    ...pageQuery(list.page, PAGE_SIZE),
  });
  const names = useNames();
  const canWrite = useCan('licenses:write');
  const filtered = Boolean(customerId || productId || key || status || trial || sharing);

  const setFilter = (name: FilterKey | 'status' | 'trial' | 'sharing', value: string) => list.update({ filters: { [name]: value } });
  const searchKey = (event: FormEvent) => {
    event.preventDefault();
    list.update({ filters: { key: keyDraft.trim() } });
  };

  return (
    <>
      <PageHeader
        title="Licenses"
        actions={
          canWrite && names.canIssue ? (
            <Link className="button button-primary" to="/licenses/new">
              Issue license
            </Link>
          ) : canWrite ? (
            <span className="muted">{names.issueHint}</span>
          ) : null
        }
      />
      <div className="filter-bar">
        <CustomerProductFilters names={names} customerId={customerId} productId={productId} onChange={setFilter} />
        <div className="form form-inline filters">
          <SelectField
            label="Status"
            multiple
            size={LICENSE_STATUSES.length + 1}
            className="status-filter"
            value={statuses.length > 0 ? statuses : ['']}
            onChange={(e) => {
              const chosen = Array.from(e.target.selectedOptions, (option) => option.value);
              setFilter('status', chosen.includes('') ? '' : chosen.join(','));
            }}
            hint="Ctrl- or ⌘-click for several."
          >
            <option value="">Any status</option>
            {LICENSE_STATUSES.map((value) => (
              <option key={value} value={value}>
                {STATUS_NAMES[value]}
              </option>
            ))}
          </SelectField>
          <SelectField label="Trial" value={trial} onChange={(e) => setFilter('trial', e.target.value)}>
            <option value="">Any</option>
            <option value="true">Trials only</option>
            <option value="false">No trials</option>
          </SelectField>
          <SelectField label="Sharing" value={sharing} onChange={(e) => setFilter('sharing', e.target.value)}>
            <option value="">Any</option>
            <option value="suspected">Suspected of sharing</option>
          </SelectField>
        </div>
        <form className="form form-inline filters" role="search" onSubmit={searchKey}>
          <TextField label="Key contains" type="search" value={keyDraft} onChange={(e) => setKeyDraft(e.target.value)} />
          <button type="submit" className="button button-primary">
            Find
          </button>
        </form>
      </div>
      <QueryState
        query={licenses}
        empty={<EmptyState title={filtered ? 'No license matches these filters.' : 'No licenses yet.'} />}
        isEmpty={(page) => page.total === 0}
      >
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more licenses." /> : <LicensesTable licenses={records} names={names} sorting={list} />}
            <Pagination page={list.page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={list.setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
