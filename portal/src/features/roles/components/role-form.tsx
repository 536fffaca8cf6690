// Create or edit a role: its name and its permission grid.
import { useState, type FormEvent } from 'react';
import { TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useFormErrors } from '../../../hooks/use-form-errors';
import type { Role } from '../../../types/api';
import type { RoleInput } from '../api/save-role';
import { PermissionGrid } from './permission-grid';

const FIELDS = ['name', 'permissions'] as const;

export function RoleForm({
  role,
  saving,
  error,
  onSubmit,
  readOnly = false,
}: {
  role?: Role;
  saving: boolean;
  error: unknown;
  onSubmit: (input: RoleInput) => void;
  readOnly?: boolean;
}) {
  const [name, setName] = useState(role?.name ?? '');
  const [permissions, setPermissions] = useState<string[]>(role?.permissions ?? []);
  const errors = useFormErrors(error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ name: name.trim(), permissions });
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} error={errors.fields.name} readOnly={readOnly} />
      <PermissionGrid value={permissions} onChange={setPermissions} readOnly={readOnly} />
      {errors.fields.permissions ? <p className="field-error">{errors.fields.permissions}</p> : null}
      {readOnly ? null : (
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? 'Saving…' : role ? 'Save role' : 'Create role'}
          </button>
        </div>
      )}
    </form>
  );
}
