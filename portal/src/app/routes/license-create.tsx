import { useNavigate, useSearchParams } from 'react-router';
import { Loading } from '../../components/status';
import { PageHeader } from '../../components/page-header';
import { useCreateLicense } from '../../features/licenses/api/create-license';
import { LicenseCreateForm } from '../../features/licenses/components/license-create-form';
import { useNames } from '../use-names';

export function LicenseCreatePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const names = useNames();
  const create = useCreateLicense();

  return (
    <>
      <PageHeader title="Issue a license" back={{ to: '/licenses', label: 'Licenses' }} />
      {names.isPending ? (
        <Loading />
      ) : (
        <LicenseCreateForm
          customers={names.customers}
          products={names.products}
          initialCustomerId={params.get('customerId') ?? ''}
          saving={create.isPending}
          error={create.error}
          onSubmit={(input) => create.mutate(input, { onSuccess: (license) => navigate(`/licenses/${license.id}`) })}
        />
      )}
    </>
  );
}
