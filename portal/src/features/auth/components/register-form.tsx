// Registration of a new staff account with a single-use key from the Master Admin.
// The account asks for the roles named in the registration link (?roles=…), which the
// key must grant; without them it starts without roles and someone with staff:manage
// assigns them.
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { email, minLength, required } from '../../../lib/form-checks';
import { useRegister } from '../api/register';

const FIELDS = ['registrationKey', 'username', 'email', 'password'] as const;

export function RegisterForm({ onRegistered }: { onRegistered: (username: string, roleCount: number) => void }) {
  const [values, setValues] = useState({ registrationKey: '', username: '', email: '', password: '' });
  const [params] = useSearchParams();
  const roleIds = (params.get('roles') ?? '').split(',').map((id) => id.trim()).filter(Boolean);
  const register = useRegister();
  const errors = useCheckedForm(values, { registrationKey: required, username: required, email, password: minLength(8) }, register.error, FIELDS);
  // The key errors are 403s with a clear message: show them on the key field.
  const keyError = register.error && /registration key/i.test((register.error as Error).message) ? (register.error as Error).message : null;

  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((old) => ({ ...old, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!errors.check()) return;
    register.mutate(
      { ...values, registrationKey: values.registrationKey.trim(), username: values.username.trim(), email: values.email.trim(), roleIds },
      { onSuccess: (staff) => onRegistered(staff.username, staff.roleIds.length) },
    );
  };

  return (
    <form className="card form sign-in" onSubmit={submit} noValidate>
      <h1>Create a staff account</h1>
      <p className="muted">
        You need a registration key from the Master Admin.{' '}
        {roleIds.length > 0
          ? `The account gets the ${roleIds.length === 1 ? 'role' : `${roleIds.length} roles`} of your registration link.`
          : 'Roles are assigned after registration.'}
      </p>
      {errors.form && !keyError ? <Notice tone="warning">{errors.form}</Notice> : null}
      <TextField label="Registration key" required value={values.registrationKey} onChange={set('registrationKey')} error={keyError ?? errors.fields.registrationKey} autoComplete="off" />
      <TextField label="Username" required value={values.username} onChange={set('username')} error={errors.fields.username} autoComplete="username" />
      <TextField label="Email" type="email" required value={values.email} onChange={set('email')} error={errors.fields.email} autoComplete="email" />
      <TextField
        label="Password"
        type="password"
        required
        minLength={8}
        value={values.password}
        onChange={set('password')}
        error={errors.fields.password}
        hint={errors.fields.password ? undefined : 'At least 8 characters.'}
        autoComplete="new-password"
      />
      <button type="submit" className="button button-primary" disabled={register.isPending}>
        {register.isPending ? 'Creating…' : 'Create account'}
      </button>
    </form>
  );
}
