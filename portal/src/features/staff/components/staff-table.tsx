// Staff accounts with their roles and status; staff:manage adds activate/deactivate,
// role assignment and deletion. The Master Admin account cannot be changed.
import { Fragment, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorMessage } from '../../../components/status';
import { Table } from '../../../components/table';
import { useCan, useSession } from '../../../hooks/use-session';
import type { Role, Staff } from '../../../types/api';
import { useDeleteStaff, useSetStaffActive } from '../api/update-staff';
import { SetPasswordForm } from './set-password-form';
import { StaffRolesEditor } from './staff-roles-editor';
import { MASTER_ADMIN } from '../../../lib/authorization';

export function StaffTable({ staff, roles }: { staff: Staff[]; roles: Role[] }) {
  const canManage = useCan('staff:manage');
  const isMasterAdmin = useCan(MASTER_ADMIN);
  // Nobody but the Master Admin changes their own roles (the API answers 403).
  const me = useSession()?.user.username;
  const [editing, setEditing] = useState<string | null>(null);
  const [settingPassword, setSettingPassword] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Staff | null>(null);
  const setActive = useSetStaffActive();
  const remove = useDeleteStaff();
  const roleName = (id: string) => roles.find((role) => role.id === id)?.name ?? 'Unknown role';

  return (
    <>
      <ErrorMessage error={setActive.error} title="Status not changed:" />
      <Table
        caption="Staff accounts"
        head={
          <tr>
            <th scope="col">Username</th>
            <th scope="col">Email</th>
            <th scope="col">Roles</th>
            <th scope="col">Status</th>
            {canManage || isMasterAdmin ? <th scope="col">Actions</th> : null}
          </tr>
        }
      >
        {staff.map((account) => (
          <Fragment key={account.id}>
            <tr>
              <td>{account.username}</td>
              <td>{account.email}</td>
              <td>{account.isMasterAdmin ? 'Master Admin' : account.roleIds.map(roleName).join(', ') || <span className="muted">No roles</span>}</td>
              <td>
                <span className={`badge ${account.active ? 'badge-ok' : 'badge-muted'}`}>{account.active ? 'Active' : 'Deactivated'}</span>
              </td>
              {canManage || isMasterAdmin ? (
                <td className="row-actions">
                  {isMasterAdmin && !account.isMasterAdmin ? (
                    <button type="button" className="button button-small" onClick={() => setSettingPassword(settingPassword === account.id ? null : account.id)}>
                      Set password <span className="visually-hidden">of {account.username}</span>
                    </button>
                  ) : null}
                  {!canManage ? null : account.isMasterAdmin ? (
                    <span className="muted">Cannot be changed</span>
                  ) : (
                    <>
                      <button
                        type="button"
                        className="button button-small"
                        disabled={setActive.isPending}
                        onClick={() => setActive.mutate({ id: account.id, active: !account.active })}
                      >
                        {account.active ? 'Deactivate' : 'Activate'} <span className="visually-hidden">{account.username}</span>
                      </button>
                      {account.username === me && !isMasterAdmin ? (
                        <span className="muted" title="You cannot change your own privileges">Your own roles</span>
                      ) : (
                        <button type="button" className="button button-small" onClick={() => setEditing(editing === account.id ? null : account.id)}>
                          Roles <span className="visually-hidden">of {account.username}</span>
                        </button>
                      )}
                      <button type="button" className="button button-small button-danger" onClick={() => setDeleting(account)}>
                        Delete <span className="visually-hidden">{account.username}</span>
                      </button>
                    </>
                  )}
                </td>
              ) : null}
            </tr>
            {settingPassword === account.id ? (
              <tr>
                <td colSpan={5}>
                  <SetPasswordForm staff={account} onDone={() => setSettingPassword(null)} />
                </td>
              </tr>
            ) : null}
            {editing === account.id ? (
              <tr>
                <td colSpan={5}>
                  <StaffRolesEditor staff={account} roles={roles} onDone={() => setEditing(null)} />
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
      </Table>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.username ?? ''}?`}
        confirmLabel="Delete account"
        danger
        busy={remove.isPending}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        <p>This cannot be undone. The person would need a new registration key to get access again.</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </>
  );
}
