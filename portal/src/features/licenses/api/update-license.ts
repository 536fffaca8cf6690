// PUT /licenses/{id}: a full replacement carrying the version the person saw.
// Validation binds IPs and HWIDs without changing the version, so the change is applied
// to a freshly read copy: a binding made meanwhile is not dropped by the PUT. A version
// that moved on (someone else saved) is a conflict, as the API's own 409 is; either way
// the license is reloaded so the page shows the current state.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { invalidate, keys } from '../../../lib/query-keys';
import type { License, LicenseUpdateInput } from '../../../types/api';
import { getLicense } from './get-license';

/** The PUT body of a license: every stored field (omitted ones would be cleared), version included. */
export function licenseUpdateBody(license: License): LicenseUpdateInput {
  return {
    productId: license.productId,
    customerId: license.customerId,
    expiresAtEpochMillis: license.expiresAtEpochMillis,
    maxIps: license.maxIps,
    maxHwids: license.maxHwids,
    slotTimeoutMinutes: license.slotTimeoutMinutes,
    selfReleaseLimit: license.selfReleaseLimit,
    sharingAlert: license.sharingAlert,
    usedIps: license.usedIps,
    usedHwids: license.usedHwids,
    version: license.version,
    validationAttempts: license.validationAttempts,
  };
}

export const putLicense = (license: License) =>
  api.put<License>(`/licenses/${encodeURIComponent(license.id)}`, licenseUpdateBody(license));

export interface LicenseChange {
  /** The license as the person saw it; its version is the one the save expects. */
  seen: License;
  change: (fresh: License) => License;
}

export const CONFLICT_MESSAGE = 'Someone else changed this license. It has been reloaded; check it and try again.';

export async function updateLicense({ seen, change }: LicenseChange): Promise<License> {
  const fresh = await getLicense(seen.id);
  if (fresh.version !== seen.version) throw new ApiError(409, CONFLICT_MESSAGE);
  try {
    return await putLicense(change(fresh));
  } catch (error) {
    if (isVersionConflict(error)) throw new ApiError(409, CONFLICT_MESSAGE);
    throw error;
  }
}

export const isVersionConflict = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 409;

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
