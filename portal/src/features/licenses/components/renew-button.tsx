// Renew: adds the product's billing period (or the days given) to the expiry, counted from
// the current expiry while it is ahead or in grace, from now after grace; with an amount the
// payment is recorded as a renewal order. The API refuses a revoked license and one that
// never expires (409); its message shows in the dialog.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/field';
import { ErrorMessage } from '../../../components/status';
import { LICENSE_SETTINGS } from '../../../lib/from-server';
import { requiredNumber } from '../../../lib/form-values';
import type { License, RenewBody } from '../../../types/api';
import { useRenewLicense } from '../api/renew-license';
import { renewProblems } from '../renewal-values';

// A renewal adds at most what a license clock may run (the API's bound for `days` is the same).
const DAYS = LICENSE_SETTINGS.validForDays;

/** `periodDays`: the product's billing period; null: it has none; undefined: not known (no products:read). */
export function RenewButton({ license, periodDays, onDone }: { license: License; periodDays?: number | null; onDone: (message: string) => void }) {
  const renew = useRenewLicense(license.id);
  const [asking, setAsking] = useState(false);
  const [days, setDays] = useState('');
  const [amount, setAmount] = useState('');
  const [checked, setChecked] = useState(false);
  const problems = checked ? renewProblems(days, amount) : {};
  const close = () => {
    renew.reset();
    setChecked(false);
    setAsking(false);
  };
  const submit = () => {
    setChecked(true);
    if (Object.keys(renewProblems(days, amount)).length > 0) return;
    const body: RenewBody = {};
    if (days.trim() !== '') body.days = Number(days.trim());
    if (amount.trim() !== '') body.amount = requiredNumber(amount) as number;
    renew.mutate(body, {
      onSuccess: () => {
        close();
        setDays('');
        setAmount('');
        onDone(body.amount !== undefined ? 'License renewed; the payment is recorded as a renewal order.' : 'License renewed.');
      },
    });
  };
  return (
    <>
      <button type="button" className="button" onClick={() => setAsking(true)}>
        Renew
      </button>
      <ConfirmDialog open={asking} title="Renew this license?" confirmLabel="Renew" busy={renew.isPending} onCancel={close} onConfirm={submit}>
        <p>
          The expiry moves on by the period, counted from the current expiry while it is ahead or in grace, from now after grace. The key stays the same.
        </p>
        <TextField
          label="Days to add"
          type="number"
          min={DAYS.minimum}
          max={DAYS.maximum}
          step={1}
          value={days}
          placeholder={periodDays ? String(periodDays) : undefined}
          onChange={(e) => setDays(e.target.value)}
          error={problems.days}
          hint={
            periodDays
              ? `Empty: the product's billing period, ${periodDays} days.`
              : periodDays === null
                ? 'The product has no billing period: give the days.'
                : "Empty: the product's billing period."
          }
        />
        <TextField
          label="Amount paid (optional)"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={problems.amount}
          hint="With an amount the payment is recorded as a renewal order."
        />
        <ErrorMessage error={renew.error} title="Not renewed:" />
      </ConfirmDialog>
    </>
  );
}
