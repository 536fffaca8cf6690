// A saved order at a glance: who, what, how much, which licenses (each a link), refunded or not.
import { Link } from 'react-router';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { Order } from '../../../types/api';
import { OrderKindBadge } from './order-kind-badge';

export function OrderSummary({ order, names }: { order: Order; names: { customer: (id: string) => string; product: (id: string) => string } }) {
  return (
    <section className="card" aria-label="Order summary">
      <dl className="facts">
        <dt>Kind</dt>
        <dd data-testid="order-kind">
          <OrderKindBadge kind={order.kind} />
        </dd>
        <dt>Customer</dt>
        <dd>
          <Link to={`/customers/${order.customerId}`}>{names.customer(order.customerId)}</Link>
        </dd>
        <dt>Products</dt>
        <dd>{order.productIds.map(names.product).join(', ')}</dd>
        <dt>Total</dt>
        <dd>
          {formatMoney(order.totalAmount)}
          {order.refundedAtEpochMillis !== undefined ? (
            <>
              {' '}
              <span className="badge badge-bad">Refunded</span>
            </>
          ) : null}
        </dd>
        {order.refundedAtEpochMillis !== undefined ? (
          <>
            <dt>Refunded</dt>
            <dd data-testid="order-refunded">{formatDateTime(order.refundedAtEpochMillis)} (not counted as revenue)</dd>
          </>
        ) : null}
        <dt>Licenses</dt>
        <dd>
          {order.licenseIds.length === 0 ? <span className="muted">None</span> : null}
          {order.licenseIds.map((id) => (
            <Link key={id} to={`/licenses/${id}`} className="chip">
              <code>{id}</code>
            </Link>
          ))}
        </dd>
        <dt>Recorded</dt>
        <dd>{formatDateTime(order.createdAtEpochMillis)}</dd>
      </dl>
    </section>
  );
}
