import { KIND_LABELS, type OrderKind } from '../order-kinds';

export function OrderKindBadge({ kind }: { kind: OrderKind }) {
  return (
    <span className={`badge ${kind === 'new' ? 'badge-ok' : 'badge-muted'}`} data-kind={kind}>
      {KIND_LABELS[kind]}
    </span>
  );
}
