import { Link } from 'react-router';
import { EmptyState } from '../../components/status';

export function NotFoundPage() {
  return (
    <EmptyState title="This page does not exist.">
      <Link to="/">Back to the dashboard</Link>
    </EmptyState>
  );
}
