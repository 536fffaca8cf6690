// The three staff:manage mutations: roles, active flag, deletion.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Staff } from '../../../types/api';

export const setStaffRoles = ({ id, roleIds }: { id: string; roleIds: string[] }) =>
  api.put<Staff>(`/staff/${encodeURIComponent(id)}/roles`, { roleIds });

export const setStaffActive = ({ id, active }: { id: string; active: boolean }) =>
  api.put<Staff>(`/staff/${encodeURIComponent(id)}/active`, { active });

export const deleteStaff = (id: string) => api.delete(`/staff/${encodeURIComponent(id)}`);

export function useSetStaffRoles() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setStaffRoles, meta: { success: 'Roles saved.' }, onSuccess: () => invalidate(queryClient, keys.staff) });
}

export function useSetStaffActive() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setStaffActive, meta: { success: 'Account updated.' }, onSuccess: () => invalidate(queryClient, keys.staff) });
}

export function useDeleteStaff() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteStaff, meta: { success: 'Account deleted.' }, onSuccess: () => invalidate(queryClient, keys.staff) });
}

/** Master Admin only: another account's new password. */
export const setStaffPassword = ({ id, newPassword }: { id: string; newPassword: string }) =>
  api.put<void>(`/staff/${encodeURIComponent(id)}/password`, { newPassword });

export function useSetStaffPassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setStaffPassword, onSuccess: () => invalidate(queryClient, keys.staff) });
}
