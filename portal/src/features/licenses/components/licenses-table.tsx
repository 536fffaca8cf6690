import { Link } from 'react-router';
import { SortHeader, type SortControl } from '../../../components/sort-header';
import { Table } from '../../../components/table';
import { Time } from '../../../components/time';
import { formatExpiry, formatLimit } from '../../../lib/format';
import type { License } from '../../../types/api';
import { licenseStatus } from '../license-stats';
import { StatusBadge } from './status-badge';

export interface NameLookup {
  customer: (id: string) => string;
  product: (id: string) => string;
}

/** `sorting`: the column headers sort the list (server-side). */
export function LicensesTable({ licenses, names, sorting }: { licenses: License[]; names: NameLookup; sorting?: SortControl }) {
  const now = Date.now();
  return (
    <Table
      caption="Licenses"
      head={
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Customer</th>
          <th scope="col">Product</th>
          <th scope="col">Status</th>
          <SortHeader field="expiresAt" control={sorting}>
            Expires
          </SortHeader>
          <th scope="col">IPs</th>
          <th scope="col">HWIDs</th>
          <SortHeader field="createdAt" control={sorting}>
            Issued
          </SortHeader>
        </tr>
      }
    >
      {licenses.map((license) => (
        <tr key={license.id}>
          <td>
            <Link to={`/licenses/${license.id}`}>
              <code className="license-key-cell">{license.id}</code>
            </Link>
          </td>
          <td>
            <Link to={`/customers/${license.customerId}`}>{names.customer(license.customerId)}</Link>
          </td>
          <td>{names.product(license.productId)}</td>
          <td>
            <StatusBadge status={licenseStatus(license, now)} />
            {license.sharingSuspectedAtEpochMillis !== null ? (
              <>
                {' '}
                <span className="badge badge-warn" data-testid="sharing-suspected" title="Presented from more distinct machines than its sharing alert allows">
                  Sharing suspected
                </span>
              </>
            ) : null}
          </td>
          <td className="nowrap">{formatExpiry(license.expiresAtEpochMillis)}</td>
          <td>
            {license.usedIps.length} / {formatLimit(license.maxIps)}
          </td>
          <td>
            {license.usedHwids.length} / {formatLimit(license.maxHwids)}
          </td>
          <td className="nowrap"><Time at={license.createdAtEpochMillis} /></td>
        </tr>
      ))}
    </Table>
  );
}
