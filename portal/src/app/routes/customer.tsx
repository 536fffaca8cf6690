// A customer's page: details, their licenses and their orders.
import { Fragment } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DeleteButton } from '../../components/delete-button';
import { IdRow } from '../../components/id-row';
import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { useCustomer } from '../../features/customers/api/get-customer';
import { useDeleteCustomer } from '../../features/customers/api/delete-customer';
import { useLicenses } from '../../features/licenses/api/get-licenses';
import { LicensesTable } from '../../features/licenses/components/licenses-table';
import { useOrders } from '../../features/orders/api/get-orders';
import { OrdersTable } from '../../features/orders/components/orders-table';
import { useCan } from '../../hooks/use-session';
import { formatDateTime } from '../../lib/format';
import { referencesText } from '../../lib/references';
import { useNames } from '../use-names';

const SOCIAL_LABELS: Record<string, string> = { twitter: 'Twitter', linkedin: 'LinkedIn', MarketplaceID: 'Marketplace user id', SteamID: 'Steam id' };

export function CustomerPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const customer = useCustomer(id);
  const canReadLicenses = useCan('licenses:read');
  const canReadOrders = useCan('orders:read');
  const licenses = useLicenses({ customerId: id }, canReadLicenses);
  const orders = useOrders({ customerId: id }, canReadOrders);
  const names = useNames();
  const remove = useDeleteCustomer();
  const canWrite = useCan('customers:write');
  const canDelete = useCan('customers:delete');
  const canIssue = useCan('licenses:write');
  const canOrder = useCan('orders:write');

  return (
    <QueryState query={customer}>
      {(data) => (
        <>
          <PageHeader
            title={data.name}
            back={{ to: '/customers', label: 'Customers' }}
            actions={
              <>
                {canWrite ? (
                  <Link className="button" to={`/customers/${id}/edit`}>
                    Edit
                  </Link>
                ) : null}
                {canDelete ? (
                  <DeleteButton
                    id={id}
                    what={`customer ${data.name}`}
                    mutation={remove}
                    conflictHelp="Licenses or orders still belong to this customer. Delete them (or move them to another customer) first."
                    blockedBy={referencesText(licenses.data?.total, orders.data?.total)}
                    onDeleted={() => navigate('/customers')}
                  />
                ) : null}
              </>
            }
          />
          <IdRow label="Customer id" id={data.id} />
          <section className="card">
            <dl className="facts">
              <dt>Email</dt>
              <dd>{data.email}</dd>
              {Object.entries(data.socials ?? {}).map(([key, value]) => (
                <Fragment key={key}>
                  <dt>{SOCIAL_LABELS[key] ?? key}</dt>
                  <dd>{value}</dd>
                </Fragment>
              ))}
              <dt>Note</dt>
              <dd>{data.note ?? <span className="muted">—</span>}</dd>
              <dt>Customer since</dt>
              <dd>{formatDateTime(data.createdAtEpochMillis)}</dd>
            </dl>
          </section>
          {canReadLicenses ? (
            <section>
              <div className="section-header">
                <h2>Licenses</h2>
                {canIssue ? (
                  <Link className="button button-small" to={`/licenses/new?customerId=${id}`}>
                    Issue a license
                  </Link>
                ) : null}
              </div>
              <QueryState query={licenses} empty={<EmptyState title="No licenses." />}>
                {(page) => <LicensesTable licenses={page.records} names={names} />}
              </QueryState>
            </section>
          ) : null}
          {canReadOrders ? (
            <section>
              <div className="section-header">
                <h2>Orders</h2>
                {canOrder ? (
                  <Link className="button button-small" to={`/orders/new?customerId=${id}`}>
                    Record an order
                  </Link>
                ) : null}
              </div>
              <QueryState query={orders} empty={<EmptyState title="No orders." />}>
                {(page) => <OrdersTable orders={page.records} names={names} />}
              </QueryState>
            </section>
          ) : null}
        </>
      )}
    </QueryState>
  );
}
