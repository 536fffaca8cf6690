// Two-factor sign-in: enrol (QR code and secret, then a code and the password to
// confirm), recovery codes shown once, or disable with the password.
import { useState, type FormEvent } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { TextField } from '../../../components/field';
import { ErrorMessage, Notice } from '../../../components/status';
import { useConfirmTotp, useDisableTotp, useStartTotp } from '../api/account';
import { QrCode } from './qr-code';

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Notice tone="warning">
      <p>
        <strong>Save these recovery codes now.</strong> Each one signs you in once if you lose your authenticator. They are not shown
        again.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <CopyButton text={codes.join('\n')} label="Copy recovery codes" />
    </Notice>
  );
}

function Enrol({ onEnabled }: { onEnabled: (recoveryCodes: string[]) => void }) {
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');

  if (!start.data) {
    return (
      <>
        <ErrorMessage error={start.error} />
        <button type="button" className="button button-primary" disabled={start.isPending} onClick={() => start.mutate()}>
          Enable two-factor sign-in
        </button>
      </>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate({ password, code: code.trim() }, { onSuccess: (result) => onEnabled(result.recoveryCodes) });
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p>Scan this code with an authenticator app, or enter the secret by hand, then type the 6-digit code it shows and your password.</p>
      <QrCode text={start.data.otpauthUri} label="QR code for your authenticator app" />
      <p>
        Secret: <code data-testid="totp-secret">{start.data.secret}</code>
      </p>
      <ErrorMessage error={confirm.error} title="Not enabled:" />
      <TextField label="Code from the app" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
      <TextField label="Your password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      <button type="submit" className="button button-primary" disabled={confirm.isPending || code.trim().length === 0 || !password}>
        Confirm and enable
      </button>
    </form>
  );
}

function Disable() {
  const disable = useDisableTotp();
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(password);
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p>Two-factor sign-in is on. Scripts use API tokens (Basic credentials are refused for this account).</p>
      <ErrorMessage error={disable.error} title="Not disabled:" />
      <TextField label="Password to disable" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      <button type="submit" className="button button-danger" disabled={disable.isPending || !password}>
        Disable two-factor sign-in
      </button>
    </form>
  );
}

export function TwoFactorPanel({ enabled }: { enabled: boolean }) {
  // Kept here: once enabled, the panel switches to Disable but the codes must stay shown.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
      {enabled ? <Disable /> : <Enrol onEnabled={setRecoveryCodes} />}
    </section>
  );
}
