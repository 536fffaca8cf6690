// Revoke (with an optional reason) or Reinstate, each asking first: a revoked license stops
// validating at the next request, a reinstated one gets its former expiry back.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/field';
import { ErrorMessage } from '../../../components/status';
import type { License } from '../../../types/api';
import { useReinstateLicense, useRevokeLicense } from '../api/revoke-license';

export function RevokeButtons({ license, onDone }: { license: License; onDone: (message: string) => void }) {
  const revoke = useRevokeLicense(license.id);
  const reinstate = useReinstateLicense(license.id);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const revoked = license.revokedAtEpochMillis !== null;
  const mutation = revoked ? reinstate : revoke;
  const close = () => {
    mutation.reset();
    setAsking(false);
  };
  return (
    <>
      <button type="button" className={revoked ? 'button' : 'button button-danger'} onClick={() => setAsking(true)}>
        {revoked ? 'Reinstate' : 'Revoke'}
      </button>
      <ConfirmDialog
        open={asking}
        title={revoked ? 'Reinstate this license?' : 'Revoke this license?'}
        confirmLabel={revoked ? 'Reinstate' : 'Revoke'}
        danger={!revoked}
        busy={mutation.isPending}
        onCancel={close}
        onConfirm={() =>
          revoked
            ? reinstate.mutate(undefined, { onSuccess: () => (setAsking(false), onDone('License reinstated.')) })
            : revoke.mutate(reason, { onSuccess: () => (setAsking(false), setReason(''), onDone('License revoked.')) })
        }
      >
        {revoked ? (
          <p>Its former expiry comes back and client software validates again.</p>
        ) : (
          <>
            <p>It expires now: client software using this key stops validating at its next check. You can reinstate it later.</p>
            <TextField label="Reason (optional)" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} hint="For example: refund, chargeback." />
          </>
        )}
        <ErrorMessage error={mutation.error} />
      </ConfirmDialog>
    </>
  );
}
