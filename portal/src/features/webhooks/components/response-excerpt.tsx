// What the receiver answered (or why there was no answer): a short excerpt in the table,
// the whole text (up to 2 KiB) on hover and when expanded.
import { excerpt } from '../excerpt';

export function ResponseExcerpt({ body }: { body: string | null }) {
  if (body === null || body.trim() === '') return <span className="muted">—</span>;
  const { short, truncated } = excerpt(body);
  if (!truncated) return <code className="response-excerpt">{short}</code>;
  return (
    <details className="response-excerpt">
      <summary title={body}>
        <code>{short}</code>
      </summary>
      <pre className="json">{body}</pre>
    </details>
  );
}
