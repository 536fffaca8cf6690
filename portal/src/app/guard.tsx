// Shows a page only to accounts holding its permission; others get an explanation.
import type { ReactNode } from 'react';
import { useCan } from '../hooks/use-session';
import { MASTER_ADMIN, type Requirement } from '../lib/authorization';

export function Guard({ requires, children }: { requires: Requirement; children: ReactNode }) {
  const allowed = useCan(requires);
  if (allowed) return <>{children}</>;
  return (
    <div className="alert alert-warning" role="alert">
      {requires === MASTER_ADMIN
        ? 'Only the Master Admin can open this page.'
        : `Your account cannot open this page: it needs the permission ${requires}.`}
    </div>
  );
}
