// A role's page: the permission grid, editable with roles:write; deletion with roles:delete.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { ErrorMessage, Notice, QueryState } from '../../components/status';
import { useRole } from '../../features/roles/api/get-role';
import { useCreateRole, useDeleteRole, useUpdateRole } from '../../features/roles/api/save-role';
import { RoleForm } from '../../features/roles/components/role-form';
import { useCan } from '../../hooks/use-session';

export function RoleCreatePage() {
  const navigate = useNavigate();
  const create = useCreateRole();
  return (
    <>
      <PageHeader title="New role" back={{ to: '/roles', label: 'Roles' }} />
      <RoleForm saving={create.isPending} error={create.error} onSubmit={(input) => create.mutate(input, { onSuccess: (role) => navigate(`/roles/${role.id}`) })} />
    </>
  );
}

export function RolePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const role = useRole(id);
  const update = useUpdateRole();
  const remove = useDeleteRole();
  const [confirming, setConfirming] = useState(false);
  const canWrite = useCan('roles:write');
  const canDelete = useCan('roles:delete');

  return (
    <QueryState query={role}>
      {(data) => (
        <>
          <PageHeader
            title={`Role: ${data.name}`}
            back={{ to: '/roles', label: 'Roles' }}
            actions={
              canDelete ? (
                <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
                  Delete role
                </button>
              ) : null
            }
          />
          {update.isSuccess ? <Notice tone="success">Role saved. Holders get the new permissions on their next request.</Notice> : null}
          <RoleForm
            key={data.id + JSON.stringify(data.permissions) + data.name}
            role={data}
            readOnly={!canWrite}
            saving={update.isPending}
            error={update.error}
            onSubmit={(input) => update.mutate({ id: data.id, ...input })}
          />
          <ConfirmDialog
            open={confirming}
            title={`Delete role ${data.name}?`}
            confirmLabel="Delete role"
            danger
            busy={remove.isPending}
            onCancel={() => setConfirming(false)}
            onConfirm={() => remove.mutate(data.id, { onSuccess: () => navigate('/roles') })}
          >
            <p>It is removed from every staff account that holds it.</p>
            <ErrorMessage error={remove.error} />
          </ConfirmDialog>
        </>
      )}
    </QueryState>
  );
}
