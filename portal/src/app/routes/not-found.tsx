import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EmptyState } from '../../components/status';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title="This page does not exist.">
        <Link to="/">Back to the dashboard</Link>
      </EmptyState>
    </>
  );
}
