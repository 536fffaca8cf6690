import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function PageHeader({ title, back, actions }: { title: ReactNode; back?: { to: string; label: string }; actions?: ReactNode }) {
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
