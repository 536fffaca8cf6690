import { Link } from 'react-router';
import { SortHeader, type SortControl } from '../../../components/sort-header';
import { Table } from '../../../components/table';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { Order } from '../../../types/api';
import { OrderKindBadge } from './order-kind-badge';

export function OrdersTable({
  orders,
  names,
  sorting,
  showLicenses = true,
}: {
  orders: Order[];
  /** False on a license's own page: every order there is about that license. */
  showLicenses?: boolean;
  names: { customer: (id: string) => string; product: (id: string) => string };
  /** The column headers sort the list (server-side). */
  sorting?: SortControl;
}) {
  return (
    <Table
      caption="Orders"
      head={
        <tr>
          <SortHeader field="createdAt" control={sorting}>
            Order
          </SortHeader>
          <th scope="col">Kind</th>
          <th scope="col">Customer</th>
          <th scope="col">Products</th>
          <SortHeader field="totalAmount" control={sorting}>
            Total
          </SortHeader>
          {showLicenses ? <th scope="col">Licenses</th> : null}
        </tr>
      }
    >
      {orders.map((order) => (
        <tr key={order.id}>
          <td className="nowrap">
            <Link to={`/orders/${order.id}`}>{formatDateTime(order.createdAtEpochMillis)}</Link>
          </td>
          <td>
            <OrderKindBadge kind={order.kind} />
          </td>
          <td>
            <Link to={`/customers/${order.customerId}`}>{names.customer(order.customerId)}</Link>
          </td>
          <td>{order.productIds.map(names.product).join(', ')}</td>
          <td className="number">
            {formatMoney(order.totalAmount)}
            {order.refundedAtEpochMillis !== undefined ? (
              <>
                {' '}
                <span className="badge badge-bad" title={`Refunded ${formatDateTime(order.refundedAtEpochMillis)}: not revenue`}>
                  Refunded
                </span>
              </>
            ) : null}
          </td>
          {showLicenses ? (
            <td>
              {order.licenseIds.map((id) => (
                <Link key={id} to={`/licenses/${id}`} className="chip" title={id}>
                  <code>{id}</code>
                </Link>
              ))}
            </td>
          ) : null}
        </tr>
      ))}
    </Table>
  );
}
