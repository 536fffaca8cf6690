// Dashboard: counts, validations per day, latest audit entries. Each part shows only
// when the account may read what it is computed from.
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorMessage, Loading, QueryState } from '../../components/status';
import { useAuditEntries } from '../../features/audit/api/get-audit-entries';
import { AuditTable } from '../../features/audit/components/audit-table';
import { useCustomers } from '../../features/customers/api/get-customers';
import { useLicenses } from '../../features/licenses/api/get-licenses';
import { ValidationsChart } from '../../features/licenses/components/validations-chart';
import { countByStatus, validationsPerDay } from '../../features/licenses/license-stats';
import { useProducts } from '../../features/products/api/get-products';
import { useCan, useSession } from '../../hooks/use-session';

const CHART_DAYS = 14;

function Stat({ label, value, to, loading }: { label: string; value: number | undefined; to: string; loading: boolean }) {
  return (
    <Link className="stat card" to={to}>
      <span className="stat-value" data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {loading ? '…' : (value ?? '—')}
      </span>
      <span className="stat-label">{label}</span>
    </Link>
  );
}

export function DashboardPage() {
  const user = useSession()?.user;
  const can = { customers: useCan('customers:read'), products: useCan('products:read'), licenses: useCan('licenses:read'), audit: useCan('actions:read') };
  const customers = useCustomers({}, can.customers);
  const products = useProducts({}, can.products);
  const licenses = useLicenses({}, can.licenses);
  const audit = useAuditEntries({ limit: 10 }, can.audit);
  const status = licenses.data ? countByStatus(licenses.data) : undefined;
  const nothing = !can.customers && !can.products && !can.licenses && !can.audit;

  return (
    <>
      <PageHeader title="Dashboard" />
      <p className="muted">Signed in as {user?.username}.</p>
      {nothing ? <EmptyState title="Your account has no permissions yet. Ask an administrator to assign you a role." /> : null}
      <div className="stats">
        {can.customers ? <Stat label="Customers" value={customers.data?.length} to="/customers" loading={customers.isPending} /> : null}
        {can.products ? <Stat label="Products" value={products.data?.length} to="/products" loading={products.isPending} /> : null}
        {can.licenses ? <Stat label="Active licenses" value={status?.active} to="/licenses" loading={licenses.isPending} /> : null}
        {can.licenses ? <Stat label="Expired licenses" value={status?.expired} to="/licenses" loading={licenses.isPending} /> : null}
      </div>
      {[customers, products, licenses].map((q, i) => (q.error ? <ErrorMessage key={i} error={q.error} /> : null))}
      {can.licenses ? (
        <section className="card">
          {licenses.isPending ? <Loading /> : licenses.data ? <ValidationsChart days={validationsPerDay(licenses.data, CHART_DAYS)} /> : null}
        </section>
      ) : null}
      {can.audit ? (
        <section>
          <div className="section-header">
            <h2>Latest activity</h2>
            <Link to="/audit">Full audit log</Link>
          </div>
          <QueryState query={audit} empty={<EmptyState title="Nothing has happened yet." />}>
            {(entries) => <AuditTable entries={entries} compact />}
          </QueryState>
        </section>
      ) : null}
    </>
  );
}
