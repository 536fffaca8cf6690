// Sign-in form. Wrong credentials and deactivated accounts get the API's own clear
// message ("Invalid username or password", "Account is deactivated"). When the API
// answers "Two-factor code required", the form asks for the code and signs in again.
import { useState, type FormEvent } from 'react';
import { ErrorMessage, Notice } from '../../../components/status';
import { TextField } from '../../../components/field';
import type { EndReason } from '../../../lib/session';
import { useLogin } from '../api/login';

const TWO_FACTOR_REQUIRED = 'Two-factor code required';

export function SignInForm({ endReason, onSignedIn }: { endReason: EndReason; onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const login = useLogin();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(
      { username: username.trim(), password, ...(needsCode && totp.trim() ? { totp: totp.trim() } : {}) },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          if ((error as Error).message === TWO_FACTOR_REQUIRED) setNeedsCode(true);
        },
      },
    );
  };
  // Asking for the code is the next step, not an error.
  const shownError = login.error && (login.error as Error).message === TWO_FACTOR_REQUIRED ? null : login.error;

  return (
    <form className="card form sign-in" onSubmit={submit} noValidate>
      <h1>Sign in</h1>
      {endReason === 'expired' && !login.error ? (
        <Notice tone="warning">Your session has ended (it expired or the account was deactivated). Please sign in again.</Notice>
      ) : null}
      {endReason === 'signed-out' && !login.error ? <Notice>You have signed out.</Notice> : null}
      <ErrorMessage error={shownError} title="Could not sign in:" />
      <TextField label="Username" name="username" autoComplete="username" required autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {needsCode ? (
        <TextField
          label="Two-factor code"
          name="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          value={totp}
          onChange={(e) => setTotp(e.target.value)}
        />
      ) : null}
      <button type="submit" className="button button-primary" disabled={login.isPending || !username || !password || (needsCode && !totp.trim())}>
        {login.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
