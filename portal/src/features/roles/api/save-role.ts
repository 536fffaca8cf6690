// Create, replace and delete a role. A role change affects the staff who hold it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { Role } from '../../../types/api';

export type RoleInput = Pick<Role, 'name' | 'permissions'>;

export const createRole = (input: RoleInput) => api.post<Role>('/roles', input);
export const updateRole = ({ id, ...input }: RoleInput & { id: string }) => api.put<Role>(`/roles/${encodeURIComponent(id)}`, input);
export const deleteRole = (id: string) => api.delete(`/roles/${encodeURIComponent(id)}`);

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createRole, meta: { success: 'Role created.' }, onSuccess: () => invalidate(queryClient, keys.roles) });
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateRole, onSuccess: () => invalidate(queryClient, keys.roles) });
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteRole, meta: { success: 'Role deleted.' }, onSuccess: () => invalidate(queryClient, keys.roles, keys.staff) });
}
