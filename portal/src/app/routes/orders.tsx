// Orders, filterable by customer and product.
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { useOrders } from '../../features/orders/api/get-orders';
import { OrdersTable } from '../../features/orders/components/orders-table';
import { useCan } from '../../hooks/use-session';
import { CustomerProductFilters, type FilterKey } from '../customer-product-filters';
import { useNames } from '../use-names';

export function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const customerId = params.get('customerId') ?? '';
  const productId = params.get('productId') ?? '';
  const orders = useOrders({ customerId: customerId || undefined, productId: productId || undefined });
  const names = useNames();
  const canWrite = useCan('orders:write');

  const setFilter = (key: FilterKey, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };

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
      <QueryState query={orders} empty={<EmptyState title={customerId || productId ? 'No order matches these filters.' : 'No orders yet.'} />}>
        {(page) => <OrdersTable orders={[...page.records].sort((a, b) => b.createdAtEpochMillis - a.createdAtEpochMillis)} names={names} />}
      </QueryState>
    </>
  );
}
