// Licenses, filterable by customer and product (filters kept in the address).
import { Link, useSearchParams } from 'react-router';
import { SelectField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { useLicenses } from '../../features/licenses/api/get-licenses';
import { LicensesTable } from '../../features/licenses/components/licenses-table';
import { useCan } from '../../hooks/use-session';
import { useNames } from '../use-names';

export function LicensesPage() {
  const [params, setParams] = useSearchParams();
  const customerId = params.get('customerId') ?? '';
  const productId = params.get('productId') ?? '';
  const licenses = useLicenses({ customerId: customerId || undefined, productId: productId || undefined });
  const names = useNames();
  const canWrite = useCan('licenses:write');

  const setFilter = (key: 'customerId' | 'productId', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };

  return (
    <>
      <PageHeader
        title="Licenses"
        actions={
          canWrite ? (
            <Link className="button button-primary" to="/licenses/new">
              Issue license
            </Link>
          ) : null
        }
      />
      <div className="form form-inline filters" role="search">
        <SelectField label="Customer" value={customerId} onChange={(e) => setFilter('customerId', e.target.value)}>
          <option value="">All customers</option>
          {names.customers.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Product" value={productId} onChange={(e) => setFilter('productId', e.target.value)}>
          <option value="">All products</option>
          {names.products.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
      </div>
      <QueryState query={licenses} empty={<EmptyState title={customerId || productId ? 'No license matches these filters.' : 'No licenses yet.'} />}>
        {(rows) => <LicensesTable licenses={rows} names={names} />}
      </QueryState>
    </>
  );
}
