import { Link } from 'react-router';
import { SortHeader, type SortControl } from '../../../components/sort-header';
import { Table } from '../../../components/table';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { Order } from '../../../types/api';

export function OrdersTable({
  orders,
  names,
  sorting,
}: {
  orders: Order[];
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
          <th scope="col">Customer</th>
          <th scope="col">Products</th>
          <SortHeader field="totalAmount" control={sorting}>
            Total
          </SortHeader>
          <th scope="col">Licenses</th>
        </tr>
      }
    >
      {orders.map((order) => (
        <tr key={order.id}>
          <td className="nowrap">
            <Link to={`/orders/${order.id}`}>{formatDateTime(order.createdAtEpochMillis)}</Link>
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
          <td>
            {order.licenseIds.map((id) => (
              <Link key={id} to={`/licenses/${id}`} className="chip" title={id}>
                <code>{id}</code>
              </Link>
            ))}
          </td>
        </tr>
      ))}
    </Table>
  );
}
