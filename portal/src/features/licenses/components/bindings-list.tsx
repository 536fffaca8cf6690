// Bound IPs or HWIDs, each with an Unbind button for accounts with licenses:write.
export function BindingsList({
  title,
  kind,
  items,
  limit,
  canUnbind,
  busy,
  onUnbind,
}: {
  title: string;
  kind: 'IP' | 'HWID';
  items: string[];
  limit: number | null;
  canUnbind: boolean;
  busy: boolean;
  onUnbind: (item: string) => void;
}) {
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
          {items.map((item) => (
            <li key={item}>
              <code>{item}</code>
              {canUnbind ? (
                <button type="button" className="button button-small" disabled={busy} onClick={() => onUnbind(item)}>
                  Unbind <span className="visually-hidden">{kind} {item}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
