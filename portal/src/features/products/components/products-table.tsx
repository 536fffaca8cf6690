import { Link } from 'react-router';
import { Table } from '../../../components/table';
import { formatLimit, formatMoney } from '../../../lib/format';
import type { Product } from '../../../types/api';

export function ProductsTable({ products }: { products: Product[] }) {
  return (
    <Table
      caption="Products"
      head={
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Price</th>
          <th scope="col">Max IPs</th>
          <th scope="col">Max HWIDs</th>
          <th scope="col">Billing</th>
          <th scope="col">Marketplace id</th>
        </tr>
      }
    >
      {products.map((product) => (
        <tr key={product.id}>
          <td>
            <Link to={`/products/${product.id}`}>{product.name}</Link>
          </td>
          <td>{product.productType}</td>
          <td className="number">{formatMoney(product.price)}</td>
          <td>{formatLimit(product.maxIps)}</td>
          <td>{formatLimit(product.maxHwids)}</td>
          <td>{product.isSubscription ? `Every ${product.recurringPeriodDays ?? '?'} days` : 'One-off'}</td>
          <td>{product.marketplaceResourceId ?? <span className="muted">—</span>}</td>
        </tr>
      ))}
    </Table>
  );
}
