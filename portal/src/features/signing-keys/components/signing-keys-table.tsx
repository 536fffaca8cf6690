// The keys with their state (current, next, retired): Activate for a next key, Delete for a
// next or retired one, each asking first.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorMessage } from '../../../components/status';
import { Table } from '../../../components/table';
import { Time } from '../../../components/time';
import { formatDateTime } from '../../../lib/format';
import type { SigningKey } from '../../../types/api';
import { useActivateSigningKey, useDeleteSigningKey } from '../api/signing-keys';

function StateBadge({ signingKey }: { signingKey: SigningKey }) {
  if (signingKey.state === 'current') return <span className="badge badge-ok">Current</span>;
  if (signingKey.state === 'next') return <span className="badge badge-muted">Next (published, not signing)</span>;
  return (
    <span className="badge badge-muted">
      Retired{signingKey.retiredAtEpochMillis ? ` on ${formatDateTime(signingKey.retiredAtEpochMillis)}` : ''}
    </span>
  );
}

export function SigningKeysTable({ signingKeys }: { signingKeys: SigningKey[] }) {
  const [deleting, setDeleting] = useState<SigningKey | null>(null);
  const [activating, setActivating] = useState<SigningKey | null>(null);
  const remove = useDeleteSigningKey();
  const activate = useActivateSigningKey();
  return (
    <>
      <Table
        caption="Signing keys"
        head={
          <tr>
            <th scope="col">Key id (kid)</th>
            <th scope="col">Created</th>
            <th scope="col">State</th>
            <th scope="col">Last signed</th>
            <th scope="col">Actions</th>
          </tr>
        }
      >
        {signingKeys.map((key) => (
          <tr key={key.kid}>
            <td>
              <code>{key.kid}</code>
            </td>
            <td className="nowrap">
              <Time at={key.createdAtEpochMillis} />
            </td>
            <td>
              <StateBadge signingKey={key} />
            </td>
            <td className="nowrap" data-testid="last-signed">
              {key.lastSignedAtEpochMillis === null ? <span className="muted">Never</span> : <Time at={key.lastSignedAtEpochMillis} style="relative" />}
            </td>
            <td className="actions-cell row-actions">
              {key.state === 'next' ? (
                <button type="button" className="button button-small button-primary" onClick={() => setActivating(key)}>
                  Activate
                </button>
              ) : null}
              {key.state !== 'current' ? (
                <button type="button" className="button button-small button-danger" onClick={() => setDeleting(key)}>
                  Delete
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <ConfirmDialog
        open={activating !== null}
        title="Activate this key?"
        confirmLabel="Activate"
        busy={activate.isPending}
        onCancel={() => {
          activate.reset();
          setActivating(null);
        }}
        onConfirm={() => activating && activate.mutate(activating.kid, { onSuccess: () => setActivating(null) })}
      >
        <p>It signs from now on; the current key is retired and keeps signing for installed copies that pin only it, until you delete it.</p>
        <ErrorMessage error={activate.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.state === 'next' ? 'Delete this next key?' : 'Delete this retired key?'}
        confirmLabel="Delete key"
        danger
        busy={remove.isPending}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() => deleting && remove.mutate(deleting.kid, { onSuccess: () => setDeleting(null) })}
      >
        <p>
          It leaves the published key set and never signs again. Installed copies that pin only this key stop verifying answers (they run
          on their offline grace, then stop). Receipts and license files it signed stop verifying.
        </p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </>
  );
}
