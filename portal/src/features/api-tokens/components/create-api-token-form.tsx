// Create an API token: a name, permissions picked from the caller's own (the API refuses
// others), an optional expiry. The secret is shown once, with a copy button.
import { useState, type FormEvent } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { TextField } from '../../../components/field';
import { PickList } from '../../../components/pick-list';
import { ErrorMessage, Notice } from '../../../components/status';
import { useSession } from '../../../hooks/use-session';
import { PERMISSIONS, WILDCARD } from '../../../lib/authorization';
import { fromDateTimeLocal } from '../../../lib/format';
import { useCreateApiToken } from '../api/api-tokens';

/** What the signed-in account may grant: its own permissions; everything for the Master Admin. */
function grantable(user: { isMasterAdmin: boolean; permissions: string[] } | undefined): string[] {
  if (!user) return [];
  if (user.isMasterAdmin) return [WILDCARD, ...PERMISSIONS];
  return PERMISSIONS.filter((p) => user.permissions.includes(p) || user.permissions.includes(WILDCARD));
}

export function CreateApiTokenForm() {
  const user = useSession()?.user;
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [expires, setExpires] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), permissions, expiresAtEpochMillis: expires ? fromDateTimeLocal(expires) : null },
      {
        onSuccess: () => {
          setName('');
          setPermissions([]);
          setExpires('');
        },
      },
    );
  };

  const options = grantable(user).map((p) => ({ id: p, label: p === WILDCARD ? '* (everything, as Master Admin)' : p, mono: true }));
  return (
    <>
      {create.data ? (
        <Notice tone="success">
          <p>
            Token <strong>{create.data.name}</strong> created. Copy it now: it is not shown again.
          </p>
          <p>
            <code data-testid="new-api-token">{create.data.token}</code> <CopyButton text={create.data.token} label="Copy token" />
          </p>
        </Notice>
      ) : null}
      <form className="card form" onSubmit={submit} noValidate aria-labelledby="new-token-title">
        <h2 id="new-token-title">New API token</h2>
        <ErrorMessage error={create.error} title="Token not created:" />
        <TextField label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} hint="What uses it, e.g. nightly export." />
        <PickList legend="Permissions" options={options} selected={permissions} onChange={setPermissions} empty="You hold no permissions to grant." />
        <TextField label="Expires (optional)" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
        <button type="submit" className="button button-primary" disabled={create.isPending || !name.trim() || permissions.length === 0}>
          Create token
        </button>
      </form>
    </>
  );
}
