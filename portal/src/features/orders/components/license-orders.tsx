// A license's orders, each labelled by what it bought (new, renewal, trial converted, tier
// change, reuse), with the count per kind: GET /orders?licenseId= (the orders holding it).
import { EmptyState, QueryState } from '../../../components/status';
import { useOrders } from '../api/get-orders';
import { KIND_LABELS, kindCounts } from '../order-kinds';
import { OrdersTable } from './orders-table';

export function LicenseOrders({
  license,
  names,
}: {
  license: { id: string };
  names: { customer: (id: string) => string; product: (id: string) => string };
}) {
  const orders = useOrders({ licenseId: license.id, sort: 'createdAt', order: 'desc' });
  return (
    <section className="card" aria-labelledby="license-orders-title" data-testid="license-orders">
      <h2 id="license-orders-title">Orders</h2>
      <QueryState query={orders}>
        {({ records: own }) => {
          if (own.length === 0) return <EmptyState title="No order refers to this license." />;
          return (
            <>
              <p className="muted" data-testid="license-order-kinds">
                {kindCounts(own)
                  .map(({ kind, count }) => `${KIND_LABELS[kind]} × ${count}`)
                  .join(' · ')}
              </p>
              <OrdersTable orders={own} names={names} showLicenses={false} />
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
