// The blocklist: rules that refuse (or only count) validations from an IP, a network or a
// hardware id, everywhere or for one product or license, with how often each matched.
import { useState } from 'react';
import { SelectField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, Notice, QueryState } from '../../components/status';
import { useBlocklist, useCreateRule } from '../../features/blocklist/api/blocklist';
import { RuleForm } from '../../features/blocklist/components/rule-form';
import { RulesTable } from '../../features/blocklist/components/rules-table';
import { useListParams } from '../../hooks/use-list-params';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';
import { useNames } from '../use-names';

const PAGE_SIZE = 50;
const SORTABLE = ['createdAt', 'hits', 'lastHitAt', 'value', 'expiresAt'];

export function BlocklistPage() {
  const list = useListParams(SORTABLE, ['type', 'mode', 'status']);
  const { type, mode, status } = list.filters as Record<'type' | 'mode' | 'status', string>;
  const rules = useBlocklist({
    type: type === 'ip' || type === 'cidr' || type === 'hwid' ? type : undefined,
    mode: mode === 'block' || mode === 'flag' ? mode : undefined,
    status: status === 'active' || status === 'expired' ? status : undefined,
    sort: list.sortQuery.sort ?? 'createdAt',
    order: list.sortQuery.order ?? 'desc',
    ...pageQuery(list.page, PAGE_SIZE),
  });
  const create = useCreateRule();
  const names = useNames();
  const canWrite = useCan('blocklist:write');
  const [added, setAdded] = useState<string | null>(null);
  const setFilter = (name: string, value: string) => list.update({ filters: { [name]: value } });

  return (
    <>
      <PageHeader title="Blocklist" />
      <p className="muted">
        A validation from a blocked IP, network or hardware id is refused before anything else is checked (reason “Blocked”), and
        self-service release from it is refused. Flag-only rules change no answer: they count hits, to try a rule first. Hit counts may
        lag a few seconds.
      </p>
      {added ? <Notice tone="success">{added}</Notice> : null}
      {canWrite ? (
        <RuleForm
          products={names.products}
          saving={create.isPending}
          error={create.error}
          onSubmit={(input, reset) => {
            setAdded(null);
            create.mutate(input, {
              onSuccess: (rule) => {
                reset();
                setAdded(`Rule for ${rule.value} added: in force now.`);
              },
            });
          }}
        />
      ) : null}
      <div className="filter-bar">
        <div className="form form-inline filters">
          <SelectField label="Type" value={type} onChange={(e) => setFilter('type', e.target.value)}>
            <option value="">Any type</option>
            <option value="ip">IP address</option>
            <option value="cidr">Network (CIDR)</option>
            <option value="hwid">Hardware id</option>
          </SelectField>
          <SelectField label="Mode" value={mode} onChange={(e) => setFilter('mode', e.target.value)}>
            <option value="">Any mode</option>
            <option value="block">Block</option>
            <option value="flag">Flag only</option>
          </SelectField>
          <SelectField label="Status" value={status} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">Any status</option>
            <option value="active">In force</option>
            <option value="expired">Expired</option>
          </SelectField>
        </div>
      </div>
      <QueryState query={rules} empty={<EmptyState title="No blocklist rules." />} isEmpty={(page) => page.total === 0}>
        {({ records, total }) => (
          <>
            <RulesTable rules={records} productName={names.product} canWrite={canWrite} />
            <Pagination page={list.page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={list.setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
