import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';

export const APP_TITLE = 'Licensing admin';

/** Sets the browser tab's title while the page is shown. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    document.title = `${title} · ${APP_TITLE}`;
    return () => {
      document.title = APP_TITLE;
    };
  }, [title]);
}

/** `documentTitle` names the tab when `title` is not plain text. */
export function PageHeader({
  title,
  back,
  actions,
  documentTitle,
}: {
  title: ReactNode;
  back?: { to: string; label: string };
  actions?: ReactNode;
  documentTitle?: string;
}) {
  useDocumentTitle(documentTitle ?? (typeof title === 'string' ? title : undefined));
  return (
    <header className="page-header">
      <div>
        {back ? (
          <Link className="back-link" to={back.to}>
            ← {back.label}
          </Link>
        ) : null}
        <h1>{title}</h1>
      </div>
      {actions ? <div className="actions">{actions}</div> : null}
    </header>
  );
}
