// Sign-in form. Wrong credentials and deactivated accounts get the API's own clear
// message ("Invalid username or password", "Account is deactivated").
import { useState, type FormEvent } from 'react';
import { ErrorMessage, Notice } from '../../../components/status';
import { TextField } from '../../../components/field';
import type { EndReason } from '../../../lib/session';
import { useLogin } from '../api/login';

export function SignInForm({ endReason, onSignedIn }: { endReason: EndReason; onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ username: username.trim(), password }, { onSuccess: onSignedIn });
  };

  return (
    <form className="card form sign-in" onSubmit={submit} noValidate>
      <h1>Sign in</h1>
      {endReason === 'expired' && !login.error ? (
        <Notice tone="warning">Your session has ended (it expired or the account was deactivated). Please sign in again.</Notice>
      ) : null}
      {endReason === 'signed-out' && !login.error ? <Notice>You have signed out.</Notice> : null}
      <ErrorMessage error={login.error} title="Could not sign in:" />
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
      <button type="submit" className="button button-primary" disabled={login.isPending || !username || !password}>
        {login.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
