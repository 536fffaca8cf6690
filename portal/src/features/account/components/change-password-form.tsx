// Change the own password. Every login token issued before it ends, this tab's too, so
// the portal signs in again right away with the new password.
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/field';
import { ErrorMessage, Notice } from '../../../components/status';
import { useChangePassword } from '../api/account';

export function ChangePasswordForm({ onChanged }: { onChanged: (newPassword: string) => void }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const change = useChangePassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
          onChanged(newPassword);
        },
      },
    );
  };

  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby="change-password-title">
      <h2 id="change-password-title">Change password</h2>
      <p className="muted">Signs out every other session of this account.</p>
      {change.isSuccess ? <Notice tone="success">Password changed.</Notice> : null}
      <ErrorMessage error={change.error} title="Password not changed:" />
      <TextField label="Current password" type="password" autoComplete="current-password" required value={currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        hint="At least 8 characters."
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
      />
      <button type="submit" className="button button-primary" disabled={change.isPending || !currentPassword || !newPassword}>
        {change.isPending ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}
