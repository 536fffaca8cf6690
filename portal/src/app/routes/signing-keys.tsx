// Signing keys (Master Admin): the key that signs receipts and license files, rotation.
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorMessage, Notice, QueryState } from '../../components/status';
import { useJwks, useRotateSigningKey, useSigningKeys } from '../../features/signing-keys/api/signing-keys';
import { SigningKeysTable } from '../../features/signing-keys/components/signing-keys-table';

export function SigningKeysPage() {
  const signingKeys = useSigningKeys();
  const jwks = useJwks();
  const rotate = useRotateSigningKey();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <PageHeader
        title="Signing keys"
        actions={
          <button type="button" className="button button-primary" onClick={() => setConfirming(true)}>
            Rotate key
          </button>
        }
      />
      <p className="muted">
        This key signs validation receipts and license files. Clients ship with the public key set below; after a rotation, ship the new
        set with your next release. Retired keys stay published so what they signed still verifies.
      </p>
      {rotate.isSuccess ? <Notice tone="success">New key {rotate.data.kid} is now current.</Notice> : null}
      <ErrorMessage error={rotate.error} title="Not rotated:" />
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
        open={confirming}
        title="Rotate the signing key?"
        confirmLabel="Rotate"
        busy={rotate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => rotate.mutate(undefined, { onSettled: () => setConfirming(false) })}
      >
        <p>A new key signs from now on. Clients that pinned only the old key treat new answers as unverified until they get the new key set.</p>
      </ConfirmDialog>
    </>
  );
}
