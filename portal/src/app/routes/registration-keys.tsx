import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { useRegistrationKeys } from '../../features/registration-keys/api/registration-keys';
import { GenerateKeyForm } from '../../features/registration-keys/components/generate-key-form';
import { RegistrationKeysTable } from '../../features/registration-keys/components/registration-keys-table';

export function RegistrationKeysPage() {
  const keys = useRegistrationKeys();
  return (
    <>
      <PageHeader title="Registration keys" />
      <p className="muted">A key lets one person create a staff account at /portal/register. Each key works once.</p>
      <GenerateKeyForm />
      <h2>Keys</h2>
      <QueryState query={keys} empty={<EmptyState title="No keys generated yet." />}>
        {(list) => <RegistrationKeysTable keys={list} />}
      </QueryState>
    </>
  );
}
