// Generates a key and shows it once, with a copy button: the API never returns it again.
// Roles chosen here are the only ones a registration with the key may take; the link
// shown with the key opens the registration page asking for exactly those.
import { useState, type FormEvent } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { TextField } from '../../../components/field';
import { PickList } from '../../../components/pick-list';
import { ErrorMessage, Notice } from '../../../components/status';
import { useRoles } from '../../roles/api/get-roles';
import { registrationLink, useGenerateRegistrationKey } from '../api/registration-keys';

export function GenerateKeyForm() {
  const [note, setNote] = useState('');
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const roles = useRoles();
  const generate = useGenerateRegistrationKey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    generate.mutate({ note: note.trim() || undefined, roleIds }, { onSuccess: () => (setNote(''), setRoleIds([])) });
  };
  const granted = generate.data?.roleIds ?? [];

  return (
    <section className="card">
      <h2>Generate a key</h2>
      <form className="form" onSubmit={submit}>
        <TextField label="Note (optional)" value={note} onChange={(e) => setNote(e.target.value)} placeholder="Who is it for?" maxLength={500} />
        <PickList
          legend="Roles the new account gets (optional: none chosen lets the registration ask for any role)"
          options={(roles.data ?? []).map((role) => ({ id: role.id, label: role.name }))}
          selected={roleIds}
          onChange={setRoleIds}
          empty="No roles defined yet."
        />
        <div>
          <button type="submit" className="button button-primary" disabled={generate.isPending}>
            {generate.isPending ? 'Generating…' : 'Generate key'}
          </button>
        </div>
      </form>
      <ErrorMessage error={generate.error} title="No key generated:" />
      {generate.data?.key ? (
        <Notice tone="success">
          <p>New single-use key. Copy it now: it is not shown again.</p>
          <p className="key-row">
            <code className="license-key" data-testid="new-registration-key">
              {generate.data.key}
            </code>
            <CopyButton text={generate.data.key} />
          </p>
          {granted.length > 0 ? (
            <>
              <p>
                It grants only {granted.length === 1 ? 'this role' : 'these roles'}:{' '}
                {granted.map((id) => roles.data?.find((role) => role.id === id)?.name ?? id).join(', ')}. Send the key with
                this registration link, which asks for them:
              </p>
              <p className="key-row">
                <code data-testid="registration-link">{registrationLink(granted)}</code>
                <CopyButton text={registrationLink(granted)} />
              </p>
            </>
          ) : null}
        </Notice>
      ) : null}
    </section>
  );
}
