import { Link } from 'react-router';
import { SortHeader, type SortControl } from '../../../components/sort-header';
import { Table } from '../../../components/table';
import { Time } from '../../../components/time';
import { formatLimit } from '../../../lib/format';
import type { License } from '../../../types/api';
import { StatusBadge } from './status-badge';
import { ExpiryText } from './expiry-text';

export interface NameLookup {
  customer: (id: string) => string;
  product: (id: string) => string;
}

/** "2 / 5"; an unlimited slot count as ∞ (the word on hover and for screen readers) to keep the list narrow. */
function SlotCount({ used, limit }: { used: number; limit: number | null }) {
  if (limit !== null) return <span className="nowrap">{used} / {limit}</span>;
  return (
    <span className="nowrap">
      {used} / <abbr title={formatLimit(null)} aria-label={formatLimit(null)}>∞</abbr>
    </span>
  );
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
          <td>
            {names.product(license.productId)}
            {license.tier !== null ? (
              <>
                {' '}
                <span className="badge badge-muted" data-testid="license-tier" title="Tier">
                  {license.tier}
                </span>
              </>
            ) : null}
          </td>
          <td>
            <StatusBadge license={license} now={now} short />
            {license.sharingSuspectedAtEpochMillis !== null ? (
              <>
                {' '}
                <span className="badge badge-warn" data-testid="sharing-suspected" title="Presented from more distinct machines than its sharing alert allows">
                  Sharing suspected
                </span>
              </>
            ) : null}
          </td>
          <td className="expiry-cell">
            {/* The date, exact time on hover: a date-time with seconds pushed "Issued" out of a laptop's view.
                "Trial ends" may wrap above its date (the date itself stays on one line), or it did too. */}
            <ExpiryText license={license} />
          </td>
          <td>
            <SlotCount used={license.usedIps.length} limit={license.maxIps} />
          </td>
          <td>
            <SlotCount used={license.usedHwids.length} limit={license.maxHwids} />
          </td>
          <td className="nowrap"><Time at={license.createdAtEpochMillis} /></td>
        </tr>
      ))}
    </Table>
  );
}
