// A delete button with a confirmation dialog. A 409 from the API (the record is still
// referenced) is explained with `conflictHelp` next to the API's own message.
import { useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client';
import { ConfirmDialog } from './confirm-dialog';
import { ErrorMessage } from './status';

interface DeleteMutation {
  mutate: (id: string, options: { onSuccess: () => void }) => void;
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

export function DeleteButton({
  id,
  what,
  mutation,
  consequence,
  conflictHelp,
  blockedBy,
  onDeleted,
}: {
  id: string;
  /** e.g. "customer Acme Ltd" */
  what: string;
  mutation: DeleteMutation;
  consequence?: ReactNode;
  conflictHelp?: ReactNode;
  /** Known before asking that the API would refuse (e.g. "2 licenses and 1 order refer to it"): the button is disabled with this reason. */
  blockedBy?: string | null;
  onDeleted: () => void;
}) {
  const [open, setOpen] = useState(false);
  const error = mutation.error;
  const conflict = error instanceof ApiError && error.status === 409;

  if (blockedBy) {
    return (
      <span className="blocked-action">
        <button type="button" className="button button-danger" disabled aria-describedby={`${id}-blocked`}>
          Delete
        </button>
        <span id={`${id}-blocked`} className="muted blocked-reason">
          Cannot delete: {blockedBy}.
        </span>
      </span>
    );
  }

  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        Delete
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete ${what}?`}
        confirmLabel="Delete"
        danger
        busy={mutation.isPending}
        onCancel={() => {
          mutation.reset();
          setOpen(false);
        }}
        onConfirm={() =>
          mutation.mutate(id, {
            onSuccess: () => {
              setOpen(false);
              onDeleted();
            },
          })
        }
      >
        <p>{consequence ?? 'This cannot be undone.'}</p>
        {conflict ? (
          <div className="alert alert-warning" role="alert">
            <p>
              <strong>It cannot be deleted yet.</strong> {error.message}
            </p>
            {conflictHelp ? <p>{conflictHelp}</p> : null}
          </div>
        ) : (
          <ErrorMessage error={error} />
        )}
      </ConfirmDialog>
    </>
  );
}
