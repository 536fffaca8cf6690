// A new release: version, channel and notes. It starts as a draft without a file; the
// release's page then takes the upload. The browser checks the version's shape first;
// the API's 409 (the version exists in the channel) shows beside the version.
import { useState, type FormEvent } from 'react';
import { SelectField, TextAreaField, TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import type { Check } from '../../../lib/form-checks';
import type { CreateReleaseBody, ReleaseChannel } from '../../../types/api';
import { CHANNELS, NOTES_MAX_LENGTH, versionProblem } from '../release-rules';

const FIELDS = ['version', 'channel', 'notes'] as const;
const notesCheck: Check = (text) => (text.length > NOTES_MAX_LENGTH ? `At most ${NOTES_MAX_LENGTH.toLocaleString()} characters.` : null);

export function ReleaseCreateForm({ saving, error, onSubmit }: { saving: boolean; error: unknown; onSubmit: (input: CreateReleaseBody) => void }) {
  const [version, setVersion] = useState('');
  const [channel, setChannel] = useState<ReleaseChannel>('stable');
  const [notes, setNotes] = useState('');
  const errors = useCheckedForm({ version, notes }, { version: versionProblem, notes: notesCheck }, error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (errors.check()) onSubmit({ version: version.trim(), channel, ...(notes.trim() ? { notes } : {}) });
  };

  return (
    <form className="form card" onSubmit={submit} noValidate aria-labelledby="new-release-heading">
      <h2 id="new-release-heading">New release</h2>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <div className="form-grid">
        <TextField
          label="Version"
          value={version}
          onChange={(e) => setVersion(e.target.value)}
          error={errors.fields.version}
          placeholder="1.4.2"
          hint="Letters, digits and . + _ -, starting with a letter or digit."
          autoComplete="off"
          required
        />
        <SelectField label="Channel" value={channel} onChange={(e) => setChannel(e.target.value as ReleaseChannel)} error={errors.fields.channel}>
          {CHANNELS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField label="Notes (optional)" value={notes} onChange={(e) => setNotes(e.target.value)} error={errors.fields.notes} rows={4} />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Creating…' : 'Create release'}
        </button>
      </div>
    </form>
  );
}
