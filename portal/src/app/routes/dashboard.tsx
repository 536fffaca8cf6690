// Dashboard: counts, validations per day, latest audit entries. Each part shows only
// when the account may read what it is computed from. The server counts: customers and
// products through a one-row page and its X-Total-Count, licenses and validations
// through GET /licenses/stats, so no view loads the records themselves.
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorMessage, Loading, QueryState } from '../../components/status';
import { useAuditEntries } from '../../features/audit/api/get-audit-entries';
import { AuditTable } from '../../features/audit/components/audit-table';
import { useCustomers } from '../../features/customers/api/get-customers';
import { useLicenseStats } from '../../features/licenses/api/get-license-stats';
import { useLicenses } from '../../features/licenses/api/get-licenses';
import { ValidationsChart } from '../../features/licenses/components/validations-chart';
import { LICENSE_STATUSES, STATUS_NAMES, validationsPerDay, windowStart } from '../../features/licenses/license-stats';
import { useProducts } from '../../features/products/api/get-products';
import { useCan, useSession } from '../../hooks/use-session';
import { GettingStarted } from '../getting-started';

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
  const customers = useCustomers({ limit: 1 }, can.customers);
  const products = useProducts({ limit: 1 }, can.products);
  // Local midnight CHART_DAYS - 1 days ago: the same key (and cached answer) all day.
  const licenses = useLicenseStats(windowStart(CHART_DAYS), can.licenses);
  const suspected = useLicenses({ sharing: 'suspected', limit: 1 }, can.licenses);
  const audit = useAuditEntries({ limit: 10 }, can.audit);
  const nothing = !can.customers && !can.products && !can.licenses && !can.audit;
  const validations = licenses.data?.validationsByHour.reduce((sum, hour) => sum + hour.successful + hour.failed, 0);

  return (
    <>
      <PageHeader title="Dashboard" />
      <p className="muted">Signed in as {user?.username}.</p>
      {nothing ? <EmptyState title="Your account has no permissions yet. Ask an administrator to assign you a role." /> : null}
      <GettingStarted
        facts={{
          products: products.data?.total,
          firstProductId: products.data?.records[0]?.id,
          licenses: licenses.data ? licenses.data.active + licenses.data.expired : undefined,
          validations,
        }}
      />
      <div className="stats">
        {can.customers ? <Stat label="Customers" value={customers.data?.total} to="/customers" loading={customers.isPending} /> : null}
        {can.products ? <Stat label="Products" value={products.data?.total} to="/products" loading={products.isPending} /> : null}
        {can.licenses ? <Stat label="Active licenses" value={licenses.data?.active} to="/licenses" loading={licenses.isPending} /> : null}
        {can.licenses ? <Stat label="Expired licenses" value={licenses.data?.expired} to="/licenses" loading={licenses.isPending} /> : null}
        {can.licenses ? <Stat label="Suspected sharing" value={suspected.data?.total} to="/licenses?sharing=suspected" loading={suspected.isPending} /> : null}
      </div>
      {can.licenses && licenses.data ? (
        <section className="card by-status" aria-labelledby="by-status-title">
          <h2 id="by-status-title">Licenses by status</h2>
          <ul className="status-counts">
            {LICENSE_STATUSES.map((status) => (
              <li key={status}>
                <Link to={`/licenses?status=${status}`}>
                  <strong data-testid={`by-status-${status}`}>{licenses.data.byStatus[status]}</strong> {STATUS_NAMES[status]}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {[customers, products, licenses, suspected].map((q, i) => (q.error ? <ErrorMessage key={i} error={q.error} /> : null))}
      {can.licenses ? (
        <section className="card">
          {licenses.isPending ? (
            <Loading />
          ) : licenses.data ? (
            <ValidationsChart days={validationsPerDay(licenses.data.validationsByHour, CHART_DAYS)} />
          ) : null}
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
