import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorMessage } from '../../../components/status';
import { Table } from '../../../components/table';
import { formatDateTime } from '../../../lib/format';
import type { ApiToken } from '../../../types/api';
import { useRevokeApiToken } from '../api/api-tokens';

export function ApiTokensTable({ tokens }: { tokens: ApiToken[] }) {
  const revoke = useRevokeApiToken();
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  return (
    <>
      <Table
        caption="Your API tokens"
        head={
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Permissions</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Actions</th>
          </tr>
        }
      >
        {tokens.map((token) => (
          <tr key={token.id}>
            <td>{token.name}</td>
            <td>{token.permissions.join(', ')}</td>
            <td>{formatDateTime(token.createdAtEpochMillis)}</td>
            <td>{token.expiresAtEpochMillis === null ? 'Never' : formatDateTime(token.expiresAtEpochMillis)}</td>
            <td>{token.lastUsedAtEpochMillis === null ? <span className="muted">Never</span> : formatDateTime(token.lastUsedAtEpochMillis)}</td>
            <td className="row-actions">
              <button type="button" className="button button-small button-danger" onClick={() => setRevoking(token)}>
                Revoke <span className="visually-hidden">{token.name}</span>
              </button>
            </td>
          </tr>
        ))}
      </Table>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? ''}?`}
        confirmLabel="Revoke token"
        danger
        busy={revoke.isPending}
        onCancel={() => {
          revoke.reset();
          setRevoking(null);
        }}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
      >
        <p>Scripts using this token stop working at their next request.</p>
        <ErrorMessage error={revoke.error} />
      </ConfirmDialog>
    </>
  );
}
