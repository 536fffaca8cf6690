// Blocklist rules with their hits: what each matches, where, in which mode, until when.
import { Link } from 'react-router';
import { DeleteButton } from '../../../components/delete-button';
import { Table } from '../../../components/table';
import { formatDateTime, formatRelative } from '../../../lib/format';
import type { BlocklistRule } from '../../../types/api';
import { useChangeRule, useDeleteRule } from '../api/blocklist';
import { MODE_LABELS, TYPE_LABELS } from '../rule-labels';

function Scope({ rule, productName }: { rule: BlocklistRule; productName: (id: string) => string }) {
  if (rule.licenseId) return <Link to={`/licenses/${rule.licenseId}`}>License <code>{rule.licenseId.slice(0, 11)}…</code></Link>;
  if (rule.productId) return <span>Product {productName(rule.productId)}</span>;
  return <span>Every license</span>;
}

export function RulesTable({ rules, productName, canWrite }: { rules: BlocklistRule[]; productName: (id: string) => string; canWrite: boolean }) {
  const remove = useDeleteRule();
  const change = useChangeRule();
  const now = Date.now();
  return (
    <Table
      caption="Blocklist rules"
      head={
        <tr>
          <th scope="col">Value</th>
          <th scope="col">Type</th>
          <th scope="col">Applies to</th>
          <th scope="col">Mode</th>
          <th scope="col">Hits</th>
          <th scope="col">Last hit</th>
          <th scope="col">Expires</th>
          <th scope="col">Note</th>
          {canWrite ? <th scope="col">Actions</th> : null}
        </tr>
      }
    >
      {rules.map((rule) => {
        const expired = rule.expiresAtEpochMillis !== null && rule.expiresAtEpochMillis <= now;
        return (
          <tr key={rule.id} data-testid="blocklist-rule">
            <td>
              <code>{rule.value}</code>
            </td>
            <td>{TYPE_LABELS[rule.type]}</td>
            <td>
              <Scope rule={rule} productName={productName} />
            </td>
            <td>
              <span className={`badge ${rule.mode === 'block' ? 'badge-bad' : 'badge-warn'}`}>{MODE_LABELS[rule.mode]}</span>
            </td>
            <td data-testid="rule-hits">{rule.hits}</td>
            <td className="nowrap">{rule.lastHitAtEpochMillis === null ? 'Never' : <span title={formatDateTime(rule.lastHitAtEpochMillis)}>{formatRelative(rule.lastHitAtEpochMillis, now)}</span>}</td>
            <td className="nowrap">{rule.expiresAtEpochMillis === null ? 'Never' : `${expired ? 'Expired ' : ''}${formatDateTime(rule.expiresAtEpochMillis)}`}</td>
            <td>{rule.note ?? ''}</td>
            {canWrite ? (
              <td className="nowrap">
                <button
                  type="button"
                  className="button"
                  disabled={change.isPending}
                  onClick={() => change.mutate({ id: rule.id, change: { mode: rule.mode === 'block' ? 'flag' : 'block' } })}
                >
                  {rule.mode === 'block' ? 'Flag only' : 'Block'}
                </button>{' '}
                <DeleteButton id={rule.id} what={`the rule for ${rule.value}`} mutation={remove} consequence="Requests it matched are no longer refused or counted." onDeleted={() => undefined} />
              </td>
            ) : null}
          </tr>
        );
      })}
    </Table>
  );
}
