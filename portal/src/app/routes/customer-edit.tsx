import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/status';
import { useCreateCustomer } from '../../features/customers/api/create-customer';
import { useCustomer } from '../../features/customers/api/get-customer';
import { useUpdateCustomer } from '../../features/customers/api/update-customer';
import { CustomerForm } from '../../features/customers/components/customer-form';

export function CustomerCreatePage() {
  const navigate = useNavigate();
  const create = useCreateCustomer();
  return (
    <>
      <PageHeader title="New customer" back={{ to: '/customers', label: 'Customers' }} />
      <CustomerForm
        saving={create.isPending}
        error={create.error}
        onSubmit={(input) => create.mutate(input, { onSuccess: (customer) => navigate(`/customers/${customer.id}`) })}
      />
    </>
  );
}

export function CustomerEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const customer = useCustomer(id);
  const update = useUpdateCustomer();
  return (
    <QueryState query={customer}>
      {(data) => (
        <>
          <PageHeader title={`Edit ${data.name}`} back={{ to: `/customers/${id}`, label: data.name }} />
          <CustomerForm
            customer={data}
            saving={update.isPending}
            error={update.error}
            onSubmit={(input) => update.mutate({ id, input }, { onSuccess: () => navigate(`/customers/${id}`) })}
          />
        </>
      )}
    </QueryState>
  );
}
