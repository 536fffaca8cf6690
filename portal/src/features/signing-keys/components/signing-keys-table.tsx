import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorMessage } from '../../../components/status';
import { Table } from '../../../components/table';
import { formatDateTime } from '../../../lib/format';
import type { SigningKey } from '../../../types/api';
import { useDeleteSigningKey } from '../api/signing-keys';

export function SigningKeysTable({ signingKeys }: { signingKeys: SigningKey[] }) {
  const [deleting, setDeleting] = useState<SigningKey | null>(null);
  const remove = useDeleteSigningKey();
  return (
    <>
      <Table
        caption="Signing keys"
        head={
          <tr>
            <th scope="col">Key id (kid)</th>
            <th scope="col">Created</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        }
      >
        {signingKeys.map((key) => (
          <tr key={key.kid}>
            <td>
              <code>{key.kid}</code>
            </td>
            <td>{formatDateTime(key.createdAtEpochMillis)}</td>
            <td>
              {key.current ? (
                <span className="badge badge-ok">Current</span>
              ) : (
                <span className="badge badge-muted">Retired{key.retiredAtEpochMillis ? ` on ${formatDateTime(key.retiredAtEpochMillis)}` : ''}</span>
              )}
            </td>
            <td>
              {!key.current ? (
                <button type="button" className="button button-small button-danger" onClick={() => setDeleting(key)}>
                  Delete
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this retired key?"
        confirmLabel="Delete key"
        danger
        busy={remove.isPending}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() => deleting && remove.mutate(deleting.kid, { onSuccess: () => setDeleting(null) })}
      >
        <p>It leaves the published key set. Receipts and license files it signed stop verifying in clients that fetch the new set.</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </>
  );
}
