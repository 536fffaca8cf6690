import type { LicenseStatus } from '../license-stats';

export function StatusBadge({ status }: { status: LicenseStatus }) {
  return <span className={`badge ${status === 'active' ? 'badge-ok' : 'badge-bad'}`}>{status === 'active' ? 'Active' : 'Expired'}</span>;
}
