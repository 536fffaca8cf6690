// Checkbox list of roles for one account; saves the complete new set.
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/status';
import type { Role, Staff } from '../../../types/api';
import { useSetStaffRoles } from '../api/update-staff';

export function StaffRolesEditor({ staff, roles, onDone }: { staff: Staff; roles: Role[]; onDone: () => void }) {
  const [selected, setSelected] = useState<string[]>(staff.roleIds);
  const save = useSetStaffRoles();

  const toggle = (id: string) => setSelected((old) => (old.includes(id) ? old.filter((x) => x !== id) : [...old, id]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ id: staff.id, roleIds: selected }, { onSuccess: onDone });
  };

  return (
    <form className="inline-editor" onSubmit={submit}>
      <fieldset>
        <legend>Roles of {staff.username}</legend>
        {roles.length === 0 ? <p className="muted">No roles exist yet. Create one under Roles.</p> : null}
        {roles.map((role) => (
          <label key={role.id} className="checkbox-label">
            <input type="checkbox" checked={selected.includes(role.id)} onChange={() => toggle(role.id)} />
            {role.name}
          </label>
        ))}
      </fieldset>
      <ErrorMessage error={save.error} title="Roles not saved:" />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save roles'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
