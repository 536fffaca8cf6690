import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { useApiTokens } from '../../features/api-tokens/api/api-tokens';
import { ApiTokensTable } from '../../features/api-tokens/components/api-tokens-table';
import { CreateApiTokenForm } from '../../features/api-tokens/components/create-api-token-form';

export function ApiTokensPage() {
  const tokens = useApiTokens();
  return (
    <>
      <PageHeader title="API tokens" />
      <p className="muted">
        For scripts: send <code>Authorization: Bearer &lt;token&gt;</code>. A token can do only what it was granted and you still may.
      </p>
      <CreateApiTokenForm />
      <h2>Tokens</h2>
      <QueryState query={tokens} empty={<EmptyState title="No API tokens yet." />}>
        {(list) => <ApiTokensTable tokens={list} />}
      </QueryState>
    </>
  );
}
