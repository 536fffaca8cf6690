// PATCH /licenses/{id} (issue #30): a partial update carrying the version the person saw, so
// someone else's save in between is a conflict (the API's 409). Fields left out are kept,
// validation history and bindings included. A change computed from the bound values (Unbind)
// reads the license fresh first: validation binds without changing the version, and the
// bound list is sent whole. Either way a conflict reloads the license.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { License, PatchLicenseBody } from '../../../types/api';
import { getLicense } from './get-license';

export type LicensePatch = Omit<PatchLicenseBody, 'version'>;

export interface LicenseChange {
  /** The license as the person saw it; its version is the one the save expects. */
  seen: License;
  /** The fields to set, or a function of the freshly read license giving them. */
  patch: LicensePatch | ((fresh: License) => LicensePatch);
}

export const CONFLICT_MESSAGE = 'Someone else changed this license. It has been reloaded; check it and try again.';

export const patchLicense = (id: string, body: PatchLicenseBody) => api.patch<License>(`/licenses/${encodeURIComponent(id)}`, body);

export async function updateLicense({ seen, patch }: LicenseChange): Promise<License> {
  let fields: LicensePatch;
  if (typeof patch === 'function') {
    const fresh = await getLicense(seen.id);
    if (fresh.version !== seen.version) throw new ApiError(409, CONFLICT_MESSAGE);
    fields = patch(fresh);
  } else {
    fields = patch;
  }
  try {
    return await patchLicense(seen.id, { ...fields, version: seen.version });
  } catch (error) {
    if (isVersionConflict(error)) throw new ApiError(409, CONFLICT_MESSAGE);
    throw error;
  }
}

/** A 409 that is a version conflict (not a field's problem the API names). */
export const isVersionConflict = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 409 && (error.message === CONFLICT_MESSAGE || /version/i.test(error.message));

export function useUpdateLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLicense,
    onSuccess: (saved) => {
      queryClient.setQueryData([...keys.licenses, 'detail', saved.id], saved);
      return invalidate(queryClient, keys.licenses);
    },
    onError: (error, { seen }) => {
      if (isVersionConflict(error)) return queryClient.invalidateQueries({ queryKey: [...keys.licenses, 'detail', seen.id] });
    },
  });
}
