// Bound IPs or HWIDs with their first and last sighting, each with an Unbind button
// (asking first) for accounts with licenses:write.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../lib/format';
import type { Sighting } from '../license-stats';

export function BindingsList({
  title,
  kind,
  items,
  sightings,
  limit,
  canUnbind,
  busy,
  onUnbind,
}: {
  title: string;
  kind: 'IP' | 'HWID';
  items: string[];
  /** From the kept validation history; an item bound before it has none. */
  sightings?: Map<string, Sighting>;
  limit: number | null;
  canUnbind: boolean;
  busy: boolean;
  onUnbind: (item: string) => void;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <section className="card">
      <h2>
        {title}{' '}
        <span className="muted">
          ({items.length} of {limit === null ? 'unlimited' : limit})
        </span>
      </h2>
      {items.length === 0 ? (
        <p className="muted">No {kind}s bound yet. The first validation from a new {kind} binds it while a slot is free.</p>
      ) : (
        <ul className="bindings" data-testid={`bound-${kind.toLowerCase()}s`}>
          {items.map((item) => {
            const seen = sightings?.get(item);
            return (
              <li key={item}>
                <span className="binding">
                  <code>{item}</code>
                  <span className="muted binding-seen" data-testid="binding-seen">
                    {seen ? `First seen ${formatDateTime(seen.first)} · last seen ${formatDateTime(seen.last)}` : 'Not in the kept history'}
                  </span>
                </span>
                {canUnbind ? (
                  <button type="button" className="button button-small" disabled={busy} onClick={() => setConfirming(item)}>
                    Unbind <span className="visually-hidden">{kind} {item}</span>
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Unbind ${kind} ${confirming ?? ''}?`}
        confirmLabel="Unbind"
        danger
        busy={busy}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming !== null) onUnbind(confirming);
          setConfirming(null);
        }}
      >
        <p>The slot becomes free. The next validation from this {kind} binds it again while a slot is free.</p>
      </ConfirmDialog>
    </section>
  );
}
