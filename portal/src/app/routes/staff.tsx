import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorMessage, QueryState } from '../../components/status';
import { useRoles } from '../../features/roles/api/get-roles';
import { useStaff } from '../../features/staff/api/get-staff';
import { StaffTable } from '../../features/staff/components/staff-table';
import { useCan } from '../../hooks/use-session';

export function StaffPage() {
  const staff = useStaff();
  // Role names need roles:read; without it the table shows no names but still works.
  const canReadRoles = useCan('roles:read');
  const roles = useRoles(canReadRoles);

  return (
    <>
      <PageHeader title="Staff" />
      <p className="muted">New accounts register themselves with a registration key from the Master Admin.</p>
      {roles.error ? <ErrorMessage error={roles.error} title="Roles could not be loaded:" /> : null}
      <QueryState query={staff} empty={<EmptyState title="No staff accounts." />}>
        {(accounts) => <StaffTable staff={accounts} roles={roles.data ?? []} />}
      </QueryState>
    </>
  );
}
