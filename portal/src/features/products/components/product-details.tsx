// Read-only view of a product, for accounts without products:write.
import { formatDateTime, formatLimit, formatMoney, formatSelfReleaseLimit, formatSlotTimeout } from '../../../lib/format';
import type { Product } from '../../../types/api';

export function ProductDetails({ product }: { product: Product }) {
  return (
    <section className="card">
      <dl className="facts">
        <dt>Type</dt>
        <dd>{product.productType}</dd>
        <dt>Price</dt>
        <dd>{formatMoney(product.price)}</dd>
        <dt>Description</dt>
        <dd>{product.description ?? <span className="muted">—</span>}</dd>
        <dt>Requires a license</dt>
        <dd>{product.requiresLicense ? 'Yes' : 'No'}</dd>
        <dt>Billing</dt>
        <dd>{product.isSubscription ? `Subscription, every ${product.recurringPeriodDays ?? '?'} days` : 'One-off'}</dd>
        <dt>Max IPs</dt>
        <dd>{formatLimit(product.maxIps)}</dd>
        <dt>Max HWIDs</dt>
        <dd>{formatLimit(product.maxHwids)}</dd>
        <dt>Idle slots freed</dt>
        <dd>{formatSlotTimeout(product.slotTimeoutMinutes)}</dd>
        <dt>Self-service releases</dt>
        <dd>{formatSelfReleaseLimit(product.selfReleaseLimit)}</dd>
        <dt>Marketplace resource id</dt>
        <dd>{product.marketplaceResourceId ?? <span className="muted">—</span>}</dd>
        <dt>Polymart product id</dt>
        <dd>{product.polymartProductId ?? <span className="muted">—</span>}</dd>
        <dt>Tiers</dt>
        <dd data-testid="product-tiers">
          {product.tiers.length === 0 ? <span className="muted">None</span> : product.tiers.map((tier) => `${tier.name} (${tier.code})`).join(', ')}
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(product.createdAtEpochMillis)}</dd>
      </dl>
    </section>
  );
}
