// Loading, empty and error states shared by every page.
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api-client';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="status status-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}

/** A person-readable message for any error; never raw JSON or a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Please try again.';
}

/** `onRetry`: a Retry button, for errors that may pass (server unreachable, overloaded). */
export function ErrorMessage({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  if (!error) return null;
  const passing = !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;
  return (
    <div className="alert alert-error" role="alert">
      {title ? <strong>{title} </strong> : null}
      {describeError(error)}
      {onRetry && passing ? (
        <>
          {' '}
          <button type="button" className="button button-small" onClick={onRetry}>
            Retry
          </button>
        </>
      ) : null}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' | 'warning' }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'warning' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** An empty array, or a list page ({records, total}) without records. */
function hasNoRecords(data: unknown): boolean {
  if (Array.isArray(data)) return data.length === 0;
  const records = (data as { records?: unknown } | null)?.records;
  return Array.isArray(records) && records.length === 0;
}

/** Renders the right state of a query: loading, error, empty, or the data. */
export function QueryState<T>({
  query,
  empty,
  isEmpty = hasNoRecords,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined; refetch?: () => unknown };
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.error || query.data === undefined) {
    const refetch = query.refetch;
    return <ErrorMessage error={query.error} onRetry={refetch ? () => void refetch() : undefined} />;
  }
  if (empty !== undefined && isEmpty(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
