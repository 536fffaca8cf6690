import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EmptyState, QueryState } from '../../components/status';
import { useRoles } from '../../features/roles/api/get-roles';
import { RolesTable } from '../../features/roles/components/roles-table';
import { useCan } from '../../hooks/use-session';

export function RolesPage() {
  const roles = useRoles();
  const canWrite = useCan('roles:write');
  return (
    <>
      <PageHeader
        title="Roles"
        actions={
          canWrite ? (
            <Link className="button button-primary" to="/roles/new">
              New role
            </Link>
          ) : null
        }
      />
      <QueryState query={roles} empty={<EmptyState title="No roles yet." />}>
        {(list) => <RolesTable roles={list} />}
      </QueryState>
    </>
  );
}
