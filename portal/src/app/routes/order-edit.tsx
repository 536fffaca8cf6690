// Record an order, or view/edit/delete one.
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { DeleteButton } from '../../components/delete-button';
import { IdRow } from '../../components/id-row';
import { PageHeader } from '../../components/page-header';
import { Loading, QueryState } from '../../components/status';
import { useCreateOrder } from '../../features/orders/api/create-order';
import { useDeleteOrder } from '../../features/orders/api/delete-order';
import { useOrder } from '../../features/orders/api/get-order';
import { useUpdateOrder } from '../../features/orders/api/update-order';
import { OrderForm } from '../../features/orders/components/order-form';
import { OrderSummary } from '../../features/orders/components/order-summary';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../../hooks/use-session';
import { useNames } from '../use-names';

export function OrderCreatePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const names = useNames();
  const create = useCreateOrder();
  const customerId = params.get('customerId') ?? '';

  return (
    <>
      <PageHeader title="New order" back={{ to: '/orders', label: 'Orders' }} />
      {names.isPending ? (
        <Loading />
      ) : (
        <OrderForm
          initialCustomerId={customerId}
          customers={names.customers}
          products={names.products}
          saving={create.isPending}
          error={create.error}
          onSubmit={(input) => create.mutate(input, { onSuccess: (order) => navigate(`/orders/${order.id}`) })}
        />
      )}
    </>
  );
}

export function OrderEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const order = useOrder(id);
  const names = useNames();
  const update = useUpdateOrder();
  const remove = useDeleteOrder();
  const canWrite = useCan('orders:write');
  const canDelete = useCan('orders:delete');

  return (
    <QueryState query={order}>
      {(data) => (
        <>
          <PageHeader
            title={`Order of ${formatDateTime(data.createdAtEpochMillis)}`}
            documentTitle="Order"
            back={{ to: '/orders', label: 'Orders' }}
            actions={canDelete ? <DeleteButton id={id} what="this order" mutation={remove} onDeleted={() => navigate('/orders')} /> : null}
          />
          <IdRow label="Order id" id={data.id} />
          <OrderSummary order={data} names={names} />
          {!canWrite ? null : names.isPending ? (
            <Loading />
          ) : (
            <>
              <h2>Edit order</h2>
              <OrderForm
                key={JSON.stringify(data)}
                order={data}
                customers={names.customers}
                products={names.products}
                saving={update.isPending}
                error={update.error}
                onSubmit={(input) => update.mutate({ id, input })}
              />
            </>
          )}
        </>
      )}
    </QueryState>
  );
}
