// Licenses, filterable by customer and product, paged (filters and page kept in the
// address). A page loads only its own licenses' histories.
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useLicenses } from '../../features/licenses/api/get-licenses';
import { LicensesTable } from '../../features/licenses/components/licenses-table';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';
import { CustomerProductFilters, type FilterKey } from '../customer-product-filters';
import { useNames } from '../use-names';

const PAGE_SIZE = 20;

export function LicensesPage() {
  const [params, setParams] = useSearchParams();
  const customerId = params.get('customerId') ?? '';
  const productId = params.get('productId') ?? '';
  const page = Number(params.get('page') ?? '0') || 0;
  const licenses = useLicenses({ customerId: customerId || undefined, productId: productId || undefined, ...pageQuery(page, PAGE_SIZE) });
  const names = useNames();
  const canWrite = useCan('licenses:write');

  const setFilter = (key: FilterKey, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next);
  };
  const goToPage = (nextPage: number) => {
    const next = new URLSearchParams(params);
    if (nextPage) next.set('page', String(nextPage));
    else next.delete('page');
    setParams(next);
  };

  return (
    <>
      <PageHeader
        title="Licenses"
        actions={
          canWrite ? (
            <Link className="button button-primary" to="/licenses/new">
              Issue license
            </Link>
          ) : null
        }
      />
      <CustomerProductFilters names={names} customerId={customerId} productId={productId} onChange={setFilter} />
      <QueryState
        query={licenses}
        empty={<EmptyState title={customerId || productId ? 'No license matches these filters.' : 'No licenses yet.'} />}
        isEmpty={(list) => list.total === 0}
      >
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more licenses." /> : <LicensesTable licenses={records} names={names} />}
            <Pagination page={page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={goToPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
