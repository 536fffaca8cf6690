import type { LicenseStatus } from '../license-stats';

const LABELS: Record<LicenseStatus, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

export function StatusBadge({ status }: { status: LicenseStatus }) {
  return <span className={`badge ${status === 'active' ? 'badge-ok' : 'badge-bad'}`}>{LABELS[status]}</span>;
}
