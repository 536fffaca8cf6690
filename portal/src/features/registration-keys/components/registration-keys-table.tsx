import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorMessage } from '../../../components/status';
import { Table } from '../../../components/table';
import { formatDateTime } from '../../../lib/format';
import type { RegistrationKey } from '../../../types/api';
import { useRoles } from '../../roles/api/get-roles';
import { useRevokeRegistrationKey } from '../api/registration-keys';

export function RegistrationKeysTable({ keys }: { keys: RegistrationKey[] }) {
  const [revoking, setRevoking] = useState<RegistrationKey | null>(null);
  const revoke = useRevokeRegistrationKey();
  const roles = useRoles();
  const roleName = (id: string) => roles.data?.find((role) => role.id === id)?.name ?? id;

  return (
    <>
      <Table
        caption="Registration keys"
        head={
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Note</th>
            <th scope="col">Created by</th>
            <th scope="col">Grants</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        }
      >
        {[...keys]
          .sort((a, b) => b.createdAtEpochMillis - a.createdAtEpochMillis)
          .map((key) => (
            <tr key={key.id}>
              <td>{formatDateTime(key.createdAtEpochMillis)}</td>
              <td>{key.note ?? <span className="muted">—</span>}</td>
              <td>{key.createdBy}</td>
              <td>{key.roleIds ? key.roleIds.map(roleName).join(', ') || 'No role' : <span className="muted">Any role</span>}</td>
              <td>
                {key.usedAtEpochMillis !== null ? (
                  <span className="badge badge-muted">
                    Used by {key.usedBy ?? 'someone'} on {formatDateTime(key.usedAtEpochMillis)}
                  </span>
                ) : (
                  <span className="badge badge-ok">Unused</span>
                )}
              </td>
              <td>
                {key.usedAtEpochMillis === null ? (
                  <button type="button" className="button button-small button-danger" onClick={() => setRevoking(key)}>
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
      </Table>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this registration key?"
        confirmLabel="Revoke key"
        danger
        busy={revoke.isPending}
        onCancel={() => {
          revoke.reset();
          setRevoking(null);
        }}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
      >
        <p>Nobody will be able to register with it.{revoking?.note ? ` (${revoking.note})` : ''}</p>
        <ErrorMessage error={revoke.error} />
      </ConfirmDialog>
    </>
  );
}
