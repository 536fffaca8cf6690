import { Link } from 'react-router';
import { SortHeader, type SortControl } from '../../../components/sort-header';
import { Table } from '../../../components/table';
import { Time } from '../../../components/time';
import { formatLimit, formatMoney } from '../../../lib/format';
import type { Product } from '../../../types/api';
import { MarketplaceIds } from './tiers-panel';

/** `sorting`: the column headers sort the list (server-side). */
export function ProductsTable({ products, sorting }: { products: Product[]; sorting?: SortControl }) {
  return (
    <Table
      caption="Products"
      head={
        <tr>
          <SortHeader field="name" control={sorting}>
            Name
          </SortHeader>
          <th scope="col">Type</th>
          <SortHeader field="price" control={sorting}>
            Price
          </SortHeader>
          <th scope="col">Max IPs</th>
          <th scope="col">Max HWIDs</th>
          <th scope="col">Billing</th>
          <th scope="col">Marketplace ids</th>
          <SortHeader field="createdAt" control={sorting}>
            Created
          </SortHeader>
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
          <td data-testid="product-marketplace-ids">
            <MarketplaceIds ids={product} />
            {product.tiers
              .filter((tier) => tier.marketplaceResourceId || tier.polymartProductId)
              .map((tier) => (
                <span className="tier-ids" key={tier.code}>
                  <span className="muted">{tier.name}:</span> <MarketplaceIds ids={tier} />
                </span>
              ))}
          </td>
          <td className="nowrap"><Time at={product.createdAtEpochMillis} /></td>
        </tr>
      ))}
    </Table>
  );
}
