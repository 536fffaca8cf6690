// Bound IPs or HWIDs with when each was bound and last seen (relative, exact on hover),
// each with a Release button (asking first) for accounts with licenses:write.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Time } from '../../../components/time';
import type { Binding } from '../../../types/api';

export function BindingsList({
  title,
  kind,
  bindings,
  limit,
  canRelease,
  busy,
  onRelease,
}: {
  title: string;
  kind: 'IP' | 'HWID';
  bindings: Binding[];
  limit: number | null;
  canRelease: boolean;
  busy: boolean;
  onRelease: (value: string) => void;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <section className="card">
      <h2>
        {title}{' '}
        <span className="muted">
          ({bindings.length} of {limit === null ? 'unlimited' : limit})
        </span>
      </h2>
      {bindings.length === 0 ? (
        <p className="muted">No {kind}s bound yet. The first validation from a new {kind} binds it while a slot is free.</p>
      ) : (
        <ul className="bindings" data-testid={`bound-${kind.toLowerCase()}s`}>
          {bindings.map((binding) => (
            <li key={binding.value}>
              <span className="binding">
                <code>{binding.value}</code>
                <span className="muted binding-seen" data-testid="binding-seen">
                  Bound <Time at={binding.firstSeenAtEpochMillis} style="relative" /> · last seen{' '}
                  <Time at={binding.lastSeenAtEpochMillis} style="relative" />
                </span>
              </span>
              {canRelease ? (
                <button type="button" className="button button-small" disabled={busy} onClick={() => setConfirming(binding.value)}>
                  Release <span className="visually-hidden">{kind} {binding.value}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Release ${kind} ${confirming ?? ''}?`}
        confirmLabel="Release"
        danger
        busy={busy}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming !== null) onRelease(confirming);
          setConfirming(null);
        }}
      >
        <p>The slot becomes free. The next validation from this {kind} binds it again while a slot is free.</p>
      </ConfirmDialog>
    </section>
  );
}
