// The status changes a release allows (publish, deprecate, archive), offered only where the
// API would accept them; Archive asks first, as it stops delivery at once.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { Release } from '../../../types/api';
import { allowedTransitions, publishBlockedBy, type Transition } from '../release-rules';

const LABELS: Record<Transition, string> = { publish: 'Publish', deprecate: 'Deprecate', archive: 'Archive' };

interface TransitionMutation {
  mutate: (to: Transition, options?: { onSuccess?: () => void }) => void;
  isPending: boolean;
}

export function ReleaseActions({ release, transition }: { release: Release; transition: TransitionMutation }) {
  const [confirmArchive, setConfirmArchive] = useState(false);
  const blocked = publishBlockedBy(release);

  return (
    <>
      {allowedTransitions(release).map((to) =>
        to === 'publish' && blocked ? (
          <span className="blocked-action" key={to}>
            <button type="button" className="button button-primary" disabled aria-describedby="publish-blocked">
              Publish
            </button>
            <span id="publish-blocked" className="muted blocked-reason">
              {blocked}.
            </span>
          </span>
        ) : (
          <button
            key={to}
            type="button"
            className={`button${to === 'publish' ? ' button-primary' : ''}`}
            disabled={transition.isPending}
            onClick={() => (to === 'archive' ? setConfirmArchive(true) : transition.mutate(to))}
          >
            {LABELS[to]}
          </button>
        ),
      )}
      <ConfirmDialog
        open={confirmArchive}
        title={`Archive release ${release.version}?`}
        confirmLabel="Archive"
        danger
        busy={transition.isPending}
        onCancel={() => setConfirmArchive(false)}
        onConfirm={() => transition.mutate('archive', { onSuccess: () => setConfirmArchive(false) })}
      >
        <p>Licenses no longer receive it. Where the product refuses unsupported versions, plugins running it stop validating.</p>
      </ConfirmDialog>
    </>
  );
}
