// Generates a key and shows it once, with a copy button: the API never returns it again.
import { useState, type FormEvent } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { TextField } from '../../../components/field';
import { ErrorMessage, Notice } from '../../../components/status';
import { useGenerateRegistrationKey } from '../api/registration-keys';

export function GenerateKeyForm() {
  const [note, setNote] = useState('');
  const generate = useGenerateRegistrationKey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    generate.mutate(note.trim() || undefined, { onSuccess: () => setNote('') });
  };

  return (
    <section className="card">
      <h2>Generate a key</h2>
      <form className="form form-inline" onSubmit={submit}>
        <TextField label="Note (optional)" value={note} onChange={(e) => setNote(e.target.value)} placeholder="Who is it for?" maxLength={500} />
        <button type="submit" className="button button-primary" disabled={generate.isPending}>
          {generate.isPending ? 'Generating…' : 'Generate key'}
        </button>
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
        </Notice>
      ) : null}
    </section>
  );
}
