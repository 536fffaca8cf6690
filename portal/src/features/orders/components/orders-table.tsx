import { Link } from 'react-router';
import { Table } from '../../../components/table';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { Order } from '../../../types/api';

export function OrdersTable({
  orders,
  names,
}: {
  orders: Order[];
  names: { customer: (id: string) => string; product: (id: string) => string };
}) {
  return (
    <Table
      caption="Orders"
      head={
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Customer</th>
          <th scope="col">Products</th>
          <th scope="col">Total</th>
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
          <td className="number">{formatMoney(order.totalAmount)}</td>
          <td>
            {order.licenseIds.map((id) => (
              <Link key={id} to={`/licenses/${id}`} className="chip">
                <code>{id.slice(0, 11)}…</code>
              </Link>
            ))}
          </td>
        </tr>
      ))}
    </Table>
  );
}
