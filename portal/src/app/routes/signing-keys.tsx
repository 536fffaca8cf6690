// Signing keys (Master Admin): the three states, the safe rotation order, and the
// leaked-key replacement, each asking for confirmation where it can switch clients off.
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorMessage, Notice, QueryState } from '../../components/status';
import { useCreateSigningKey, useJwks, useSigningKeys } from '../../features/signing-keys/api/signing-keys';
import { SigningKeysTable } from '../../features/signing-keys/components/signing-keys-table';

export function SigningKeysPage() {
  const signingKeys = useSigningKeys();
  const jwks = useJwks();
  const create = useCreateSigningKey();
  const [replacing, setReplacing] = useState(false);
  const hasNext = signingKeys.data?.some((key) => key.state === 'next') ?? false;
  return (
    <>
      <PageHeader
        title="Signing keys"
        actions={
          <>
            <button type="button" className="button button-primary" disabled={hasNext || create.isPending} onClick={() => create.mutate(false)}>
              Create next key
            </button>
            <button type="button" className="button button-danger" onClick={() => setReplacing(true)}>
              Key leaked: replace now
            </button>
          </>
        }
      />
      <p className="muted" data-testid="rotation-order">
        Safe order: create a next key, ship a release of your software with the new key set below, activate the key when you like, and
        delete the old key once no installed copy needs it.
      </p>
      <p className="muted">
        The current key signs validation receipts and license files. A next key is published but never signs. A retired key still signs
        for installed copies that pin only it, until you delete it.
      </p>
      <p className="muted" data-testid="last-signed-help">
        Last signed says when a key last signed a validation receipt or license file (up to a minute late for other instances of the
        service). A retired key that has not signed for longer than your installed copies go between validations is no longer needed by
        any copy that still validates.
      </p>
      {create.isSuccess ? (
        <Notice tone="success">
          {create.data.state === 'next' ? `Next key ${create.data.kid} created: ship the new key set, then activate it.` : `New key ${create.data.kid} is now current.`}
        </Notice>
      ) : null}
      <ErrorMessage error={create.error} title="Not created:" />
      <QueryState query={signingKeys} empty={<EmptyState title="No signing keys." />}>
        {(list) => <SigningKeysTable signingKeys={list} />}
      </QueryState>
      <h2>Public key set (JWKS)</h2>
      <QueryState query={jwks}>
        {(set) => (
          <section className="card">
            <pre className="code-block" data-testid="jwks">{JSON.stringify(set, null, 2)}</pre>
            <CopyButton text={JSON.stringify(set, null, 2)} label="Copy JWK Set" />
          </section>
        )}
      </QueryState>
      <ConfirmDialog
        open={replacing}
        title="Replace the signing key now?"
        confirmLabel="Replace now"
        danger
        busy={create.isPending}
        onCancel={() => setReplacing(false)}
        onConfirm={() => create.mutate(true, { onSettled: () => setReplacing(false) })}
      >
        <p>
          A new key signs from now on and the current one is retired. Installed copies that pin only the old key keep working with it until
          you delete it: ship a release with the new key set, then delete the leaked key to switch the old copies off.
        </p>
      </ConfirmDialog>
    </>
  );
}
