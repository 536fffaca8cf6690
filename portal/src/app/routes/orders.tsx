// Orders, filterable by customer and product; sortable and paged, newest first.
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useOrders } from '../../features/orders/api/get-orders';
import { OrdersTable } from '../../features/orders/components/orders-table';
import { useListParams } from '../../hooks/use-list-params';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';
import { CustomerProductFilters, type FilterKey } from '../customer-product-filters';
import { useNames } from '../use-names';

const PAGE_SIZE = 20;
const SORTABLE = ['createdAt', 'totalAmount'];

export function OrdersPage() {
  const list = useListParams(SORTABLE, ['customerId', 'productId']);
  const { customerId, productId } = list.filters as Record<'customerId' | 'productId', string>;
  const orders = useOrders({
    customerId: customerId || undefined,
    productId: productId || undefined,
    ...list.sortQuery,
    ...pageQuery(list.page, PAGE_SIZE),
  });
  const names = useNames();
  const canWrite = useCan('orders:write');

  const setFilter = (key: FilterKey, value: string) => list.update({ filters: { [key]: value } });

  return (
    <>
      <PageHeader
        title="Orders"
        actions={
          canWrite ? (
            <Link className="button button-primary" to="/orders/new">
              New order
            </Link>
          ) : null
        }
      />
      <CustomerProductFilters names={names} customerId={customerId} productId={productId} onChange={setFilter} />
      <QueryState
        query={orders}
        empty={<EmptyState title={customerId || productId ? 'No order matches these filters.' : 'No orders yet.'} />}
        isEmpty={(page) => page.total === 0}
      >
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more orders." /> : <OrdersTable orders={records} names={names} sorting={list} />}
            <Pagination page={list.page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={list.setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
