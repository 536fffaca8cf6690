// Orders, filterable by customer and product.
import { Link, useSearchParams } from 'react-router';
import { SelectField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { useOrders } from '../../features/orders/api/get-orders';
import { OrdersTable } from '../../features/orders/components/orders-table';
import { useCan } from '../../hooks/use-session';
import { useNames } from '../use-names';

export function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const customerId = params.get('customerId') ?? '';
  const productId = params.get('productId') ?? '';
  const orders = useOrders({ customerId: customerId || undefined, productId: productId || undefined });
  const names = useNames();
  const canWrite = useCan('orders:write');

  const setFilter = (key: 'customerId' | 'productId', value: string) => {
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
      <div className="form form-inline filters" role="search">
        <SelectField label="Customer" value={customerId} onChange={(e) => setFilter('customerId', e.target.value)}>
          <option value="">All customers</option>
          {names.customers.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Product" value={productId} onChange={(e) => setFilter('productId', e.target.value)}>
          <option value="">All products</option>
          {names.products.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
      </div>
      <QueryState query={orders} empty={<EmptyState title={customerId || productId ? 'No order matches these filters.' : 'No orders yet.'} />}>
        {(page) => <OrdersTable orders={[...page.records].sort((a, b) => b.createdAtEpochMillis - a.createdAtEpochMillis)} names={names} />}
      </QueryState>
    </>
  );
}
