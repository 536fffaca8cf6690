// The "Customer" picker of the forms that belong to a customer (licenses, orders).
import { SelectField } from '../../../components/field';
import type { Customer } from '../../../types/api';

export function CustomerSelect({
  customers,
  value,
  onChange,
  error,
}: {
  customers: Customer[];
  value: string;
  onChange: (customerId: string) => void;
  error?: string | null;
}) {
  return (
    <SelectField label="Customer" required value={value} onChange={(e) => onChange(e.target.value)} error={error}>
      <option value="">Choose a customer…</option>
      {customers.map((customer) => (
        <option key={customer.id} value={customer.id}>
          {customer.name} ({customer.email})
        </option>
      ))}
    </SelectField>
  );
}
