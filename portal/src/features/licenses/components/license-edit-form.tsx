// Change a license's expiry and limits. The save carries the version read; a conflict
// reloads the license and says so (see useUpdateLicense).
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useFormErrors } from '../../../hooks/use-form-errors';
import { fromDateTimeLocal, toDateTimeLocal } from '../../../lib/format';
import { numberInput, optionalInteger } from '../../../lib/form-values';
import type { License } from '../../../types/api';
import { SELF_RELEASE_HINT, SLOT_TIMEOUT_HINT } from '../slot-setting-hints';

const FIELDS = ['expiresAtEpochMillis', 'maxIps', 'maxHwids', 'slotTimeoutMinutes', 'selfReleaseLimit'] as const;

export function LicenseEditForm({
  license,
  saving,
  error,
  onSubmit,
}: {
  license: License;
  saving: boolean;
  error: unknown;
  onSubmit: (change: (fresh: License) => License) => void;
}) {
  const [expires, setExpires] = useState(toDateTimeLocal(license.expiresAtEpochMillis));
  const [maxIps, setMaxIps] = useState(numberInput(license.maxIps));
  const [maxHwids, setMaxHwids] = useState(numberInput(license.maxHwids));
  const [slotTimeout, setSlotTimeout] = useState(numberInput(license.slotTimeoutMinutes));
  const [selfReleases, setSelfReleases] = useState(numberInput(license.selfReleaseLimit));
  const errors = useFormErrors(error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit((fresh) => ({
      ...fresh,
      expiresAtEpochMillis: fromDateTimeLocal(expires),
      maxIps: optionalInteger(maxIps) as number | null,
      maxHwids: optionalInteger(maxHwids) as number | null,
      slotTimeoutMinutes: optionalInteger(slotTimeout) as number | null,
      selfReleaseLimit: optionalInteger(selfReleases) as number | null,
    }));
  };

  return (
    <form className="form card" onSubmit={submit} noValidate>
      <h2>Expiry, limits and healing</h2>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <div className="form-grid">
        <TextField label="Expires at" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} error={errors.fields.expiresAtEpochMillis} hint="Empty = perpetual." />
        <TextField label="Max IPs" type="number" min={0} step={1} value={maxIps} onChange={(e) => setMaxIps(e.target.value)} error={errors.fields.maxIps} hint="Empty = unlimited." />
        <TextField label="Max HWIDs" type="number" min={0} step={1} value={maxHwids} onChange={(e) => setMaxHwids(e.target.value)} error={errors.fields.maxHwids} hint="Empty = unlimited." />
        <TextField label="Free idle slots after (minutes)" type="number" min={1} step={1} value={slotTimeout} onChange={(e) => setSlotTimeout(e.target.value)} error={errors.fields.slotTimeoutMinutes} hint={SLOT_TIMEOUT_HINT} />
        <TextField label="Self-service releases per 30 days" type="number" min={1} step={1} value={selfReleases} onChange={(e) => setSelfReleases(e.target.value)} error={errors.fields.selfReleaseLimit} hint={SELF_RELEASE_HINT} />
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}
