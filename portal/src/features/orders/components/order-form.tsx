// Create or edit an order: customer, products and licenses picked from lists, total.
// The license list is the chosen customer's only, fetched when the customer changes
// (all licenses, each with its history, would be far too much to load for a picker).
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { CustomerSelect } from '../../customers/components/customer-select';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { amount } from '../../../lib/form-checks';
import { useCan } from '../../../hooks/use-session';
import { formatMoney } from '../../../lib/format';
import { numberInput, requiredNumber } from '../../../lib/form-values';
import type { Customer, Order, OrderInput, Product, ProductName } from '../../../types/api';
import { PickList } from '../../../components/pick-list';
import { useLicenses } from '../../licenses/api/get-licenses';

const FIELDS = ['customerId', 'productIds', 'totalAmount', 'licenseIds'] as const;

export function OrderForm({
  order,
  initialCustomerId = '',
  customers,
  products,
  saving,
  error,
  onSubmit,
}: {
  order?: Order;
  initialCustomerId?: string;
  customers: Customer[];
  /** With prices when products are readable; names only (GET /products/names) otherwise. */
  products: (ProductName & Partial<Product>)[];
  saving: boolean;
  error: unknown;
  onSubmit: (input: OrderInput) => void;
}) {
  const [customerId, setCustomerId] = useState(order?.customerId ?? initialCustomerId);
  const [productIds, setProductIds] = useState<string[]>(order?.productIds ?? []);
  const [licenseIds, setLicenseIds] = useState<string[]>(order?.licenseIds ?? []);
  const [total, setTotal] = useState(numberInput(order?.totalAmount));
  const errors = useCheckedForm(
    { customerId, productIds: productIds.join(','), totalAmount: total, licenseIds: licenseIds.join(',') },
    {
      customerId: (text) => (text ? null : 'Choose a customer.'),
      productIds: (text) => (text ? null : 'Choose at least one product.'),
      totalAmount: amount,
    },
    error,
    FIELDS,
  );
  const licenses = useLicenses({ customerId }, useCan('licenses:read') && customerId !== '');

  const productName = (id: string) => products.find((p) => p.id === id)?.name ?? 'Unknown product';
  const sum = productIds.reduce((acc, id) => acc + (products.find((p) => p.id === id)?.price ?? 0), 0);
  // Licenses of the chosen customer, plus any already linked to the order (by key only
  // when they belong to someone else).
  const customerLicenses = licenses.data?.records ?? [];
  const licenseChoices = [
    ...customerLicenses.map((l) => ({ id: l.id, label: `${l.id} (${productName(l.productId)})`, mono: true })),
    ...licenseIds.filter((id) => !customerLicenses.some((l) => l.id === id)).map((id) => ({ id, label: id, mono: true })),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!errors.check()) return;
    onSubmit({ customerId, productIds, licenseIds, totalAmount: requiredNumber(total) as number });
  };

  return (
    <form className="form card" onSubmit={submit} noValidate>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <CustomerSelect customers={customers} value={customerId} onChange={setCustomerId} error={errors.fields.customerId} />
      <PickList
        legend="Products"
        options={products.map((p) => ({ id: p.id, label: p.price === undefined ? p.name : `${p.name} (${formatMoney(p.price)})` }))}
        selected={productIds}
        onChange={setProductIds}
        error={errors.fields.productIds}
        empty="No products exist yet."
      />
      <div className="form-inline">
        <TextField label="Total amount" required inputMode="decimal" value={total} onChange={(e) => setTotal(e.target.value)} error={errors.fields.totalAmount} />
        {productIds.length > 0 ? (
          <button type="button" className="button button-small" onClick={() => setTotal(String(sum))}>
            Use sum of prices ({formatMoney(sum)})
          </button>
        ) : null}
      </div>
      <PickList
        legend="Licenses"
        options={licenseChoices}
        selected={licenseIds}
        onChange={setLicenseIds}
        error={errors.fields.licenseIds}
        empty={
          !customerId ? 'Choose a customer to see their licenses.' : licenses.isLoading ? 'Loading licenses…' : 'This customer has no licenses.'
        }
      />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : order ? 'Save order' : 'Create order'}
        </button>
      </div>
    </form>
  );
}
