// A license's page: key, status, tier, limits, bindings with Release, Renew, its orders by
// kind, validation history. Every change is a PATCH with the version read; a conflict
// reloads and says someone else changed it.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { DeleteButton } from '../../components/delete-button';
import { PageHeader } from '../../components/page-header';
import { ErrorMessage, Notice, QueryState } from '../../components/status';
import { useDeleteLicense } from '../../features/licenses/api/delete-license';
import { useLicense } from '../../features/licenses/api/get-license';
import { isVersionConflict, useUpdateLicense } from '../../features/licenses/api/update-license';
import { BindingsList } from '../../features/licenses/components/bindings-list';
import { LicenseFileButton } from '../../features/licenses/components/license-file-button';
import { RevokeButtons } from '../../features/licenses/components/revoke-buttons';
import { RenewButton } from '../../features/licenses/components/renew-button';
import { LicenseOrders } from '../../features/orders/components/license-orders';
import { LicenseEditForm } from '../../features/licenses/components/license-edit-form';
import { LicenseSummary } from '../../features/licenses/components/license-summary';
import { ValidationHistory } from '../../features/licenses/components/validation-history';
import { SharingPanel } from '../../features/licenses/components/sharing-panel';
import { useCreateRule } from '../../features/blocklist/api/blocklist';
import { BlockButtons, BlockScopePicker, blockRule, type BlockScope } from '../../features/blocklist/components/block-buttons';
import { withoutBinding } from '../../features/licenses/license-stats';
import { useCan } from '../../hooks/use-session';
import { useNames } from '../use-names';
import type { Product } from '../../types/api';

export function LicensePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const license = useLicense(id);
  const names = useNames();
  const update = useUpdateLicense();
  const remove = useDeleteLicense();
  const [done, setDone] = useState<string | null>(null);
  const [action, setAction] = useState<'release' | 'edit'>('edit');
  const canWrite = useCan('licenses:write');
  const canDelete = useCan('licenses:delete');
  const canBlock = useCan('blocklist:write');
  const canReadOrders = useCan('orders:read');
  const block = useCreateRule();
  const [blockScope, setBlockScope] = useState<BlockScope>('license');
  const conflict = isVersionConflict(update.error);

  return (
    <QueryState query={license}>
      {(data) => {
        const release = (kind: 'ip' | 'hwid', value: string) => {
          setDone(null);
          setAction('release');
          update.mutate(
            {
              seen: data,
              patch: (fresh) => {
                const unbound = withoutBinding(fresh, kind, value);
                return kind === 'ip' ? { usedIps: unbound.usedIps } : { usedHwids: unbound.usedHwids };
              },
            },
            { onSuccess: () => setDone(`${kind === 'ip' ? 'IP' : 'HWID'} ${value} released.`) },
          );
        };
        const blockValue = (type: 'hwid' | 'ip', value: string) => {
          setDone(null);
          block.mutate(blockRule(type, value, blockScope, data), {
            onSuccess: () =>
              setDone(`${type === 'ip' ? 'IP' : 'HWID'} ${value} blocked for ${blockScope === 'license' ? 'this license' : 'every license of this product'}.`),
          });
        };
        // Full products (products:read) carry the tiers and the billing period.
        const product = names.products.find((p) => p.id === data.productId) as Partial<Product> | undefined;
        return (
          <>
            <PageHeader
              title="License"
              back={{ to: '/licenses', label: 'Licenses' }}
              actions={
                <>
                  <button type="button" className="button" onClick={() => license.refetch()} disabled={license.isFetching}>
                    {license.isFetching ? 'Refreshing…' : 'Refresh'}
                  </button>
                  {canWrite ? <LicenseFileButton licenseId={id} /> : null}
                  {canWrite ? <RenewButton license={data} periodDays={product?.recurringPeriodDays} onDone={setDone} /> : null}
                  {canWrite ? <RevokeButtons license={data} onDone={setDone} /> : null}
                  {canDelete ? (
                    <DeleteButton id={id} what="this license" mutation={remove} consequence="Client software using this key stops validating. Orders lose the reference." onDeleted={() => navigate('/licenses')} />
                  ) : null}
                </>
              }
            />
            {conflict ? <Notice tone="warning">{update.error?.message}</Notice> : null}
            {!conflict && action === 'release' ? <ErrorMessage error={update.error} title="Not saved:" /> : null}
            {done ? <Notice tone="success">{done}</Notice> : null}
            <ErrorMessage error={block.error} title="Not blocked:" />
            <LicenseSummary license={data} names={names} tiers={product?.tiers} />
            <SharingPanel licenseId={id} canClear={canWrite} />
            <div className="two-columns">
              <BindingsList title="Bound IPs" kind="IP" bindings={data.bindings.ips} limit={data.maxIps} canRelease={canWrite} busy={update.isPending} onRelease={(ip) => release('ip', ip)} />
              <BindingsList title="Bound HWIDs" kind="HWID" bindings={data.bindings.hwids} limit={data.maxHwids} canRelease={canWrite} busy={update.isPending} onRelease={(hwid) => release('hwid', hwid)} />
            </div>
            {canWrite ? (
              <LicenseEditForm
                key={data.version}
                license={data}
                tiers={product?.tiers}
                saving={update.isPending}
                error={conflict || action !== 'edit' ? null : update.error}
                onSubmit={(patch) => {
                  setDone(null);
                  setAction('edit');
                  if (Object.keys(patch).length === 0) return setDone('Nothing changed.');
                  update.mutate({ seen: data, patch }, { onSuccess: () => setDone('License saved.') });
                }}
              />
            ) : null}
            {canReadOrders ? <LicenseOrders license={data} names={names} /> : null}
            <ValidationHistory
              attempts={data.validationAttempts}
              revokedReason={data.revokedReason}
              toolbar={canBlock ? <BlockScopePicker value={blockScope} onChange={setBlockScope} /> : null}
              rowActions={canBlock ? (attempt) => <BlockButtons hwid={attempt.hwid} ip={attempt.ip} busy={block.isPending} onBlock={blockValue} /> : undefined}
            />
          </>
        );
      }}
    </QueryState>
  );
}
