// The customer and product pickers that filter the licenses and orders lists.
import { SelectField } from '../components/field';
import type { useNames } from './use-names';

export type FilterKey = 'customerId' | 'productId';

interface Props {
  names: ReturnType<typeof useNames>;
  customerId: string;
  productId: string;
  onChange(key: FilterKey, value: string): void;
}

export function CustomerProductFilters({ names, customerId, productId, onChange }: Props) {
  return (
    <div className="form form-inline filters" role="search">
      <SelectField label="Customer" value={customerId} onChange={(e) => onChange('customerId', e.target.value)}>
        <option value="">All customers</option>
        {names.customers.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Product" value={productId} onChange={(e) => onChange('productId', e.target.value)}>
        <option value="">All products</option>
        {names.products.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
