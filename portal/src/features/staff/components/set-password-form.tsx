// The Master Admin sets another account's password (its sessions end).
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/field';
import { ErrorMessage, Notice } from '../../../components/status';
import type { Staff } from '../../../types/api';
import { useSetStaffPassword } from '../api/update-staff';

export function SetPasswordForm({ staff, onDone }: { staff: Staff; onDone: () => void }) {
  const [newPassword, setNewPassword] = useState('');
  const setPassword = useSetStaffPassword();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPassword.mutate({ id: staff.id, newPassword });
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={`Set password of ${staff.username}`}>
      {setPassword.isSuccess ? <Notice tone="success">Password set. Their sessions have ended; tell them the new password.</Notice> : null}
      <ErrorMessage error={setPassword.error} title="Password not set:" />
      <TextField
        label={`New password for ${staff.username}`}
        type="password"
        autoComplete="new-password"
        minLength={8}
        hint="At least 8 characters."
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
      />
      <div className="row-actions">
        <button type="submit" className="button button-primary" disabled={setPassword.isPending || !newPassword}>
          Set password
        </button>
        <button type="button" className="button" onClick={onDone}>
          Close
        </button>
      </div>
    </form>
  );
}
