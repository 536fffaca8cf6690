// Rotate the signing secret after asking; the new one (answered only here) is handed to the
// page to show once. The old one keeps signing beside it for 24 hours.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorMessage } from '../../../components/status';
import { useRotateWebhookSecret } from '../api/webhook-endpoints';

export function RotateSecretButton({ endpointId, onRotated }: { endpointId: string; onRotated: (secret: string) => void }) {
  const rotate = useRotateWebhookSecret(endpointId);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" className="button" onClick={() => setAsking(true)}>
        Rotate secret
      </button>
      <ConfirmDialog
        open={asking}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        danger
        busy={rotate.isPending}
        onCancel={() => {
          rotate.reset();
          setAsking(false);
        }}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: ({ secret }) => {
              setAsking(false);
              onRotated(secret);
            },
          })
        }
      >
        <p>
          Every attempt from now on is signed with a new secret. For 24 hours it also carries a signature made with the old one, so the
          receiver keeps accepting deliveries while you install the new secret there; after that, only the new one verifies.
        </p>
        <ErrorMessage error={rotate.error} />
      </ConfirmDialog>
    </>
  );
}
