// Create or edit a customer, socials included. The API's 400 message names the field;
// it is shown beside that field.
import { useState, type FormEvent } from 'react';
import { TextAreaField, TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { email as emailCheck, required } from '../../../lib/form-checks';
import type { Customer, CustomerInput } from '../../../types/api';
import { joinSocials, splitSocials, type SocialRow } from '../socials';

const FIELDS = ['name', 'email', 'socials.twitter', 'socials.linkedin', 'socials', 'note'] as const;

export function CustomerForm({
  customer,
  saving,
  error,
  onSubmit,
}: {
  customer?: Customer;
  saving: boolean;
  error: unknown;
  onSubmit: (input: CustomerInput) => void;
}) {
  const initial = splitSocials(customer?.socials);
  const [name, setName] = useState(customer?.name ?? '');
  const [email, setEmail] = useState(customer?.email ?? '');
  const [twitter, setTwitter] = useState(initial.twitter);
  const [linkedin, setLinkedin] = useState(initial.linkedin);
  const [others, setOthers] = useState<SocialRow[]>(initial.others);
  const [note, setNote] = useState(customer?.note ?? '');
  const errors = useCheckedForm({ name, email, note, 'socials.twitter': twitter, 'socials.linkedin': linkedin }, { name: required, email: emailCheck }, error, FIELDS);

  const setRow = (index: number, patch: Partial<SocialRow>) =>
    setOthers((rows) => rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!errors.check()) return;
    const input: CustomerInput = { name: name.trim(), email: email.trim(), socials: joinSocials(twitter, linkedin, others) };
    if (note.trim() !== '') input.note = note.trim();
    onSubmit(input);
  };

  return (
    <form className="form card" onSubmit={submit} noValidate>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} error={errors.fields.name} autoComplete="off" />
      <TextField label="Email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={errors.fields.email} autoComplete="off" />
      <fieldset>
        <legend>Socials</legend>
        <div className="form-grid">
          <TextField label="Twitter handle" value={twitter} onChange={(e) => setTwitter(e.target.value)} error={errors.fields['socials.twitter']} placeholder="@handle" />
          <TextField label="LinkedIn" value={linkedin} onChange={(e) => setLinkedin(e.target.value)} error={errors.fields['socials.linkedin']} placeholder="profile slug" />
        </div>
        {others.map((row, index) => (
          <div className="form-grid social-row" key={index}>
            <TextField label={`Other social ${index + 1}: name`} value={row.key} onChange={(e) => setRow(index, { key: e.target.value })} />
            <TextField label={`Other social ${index + 1}: value`} value={row.value} onChange={(e) => setRow(index, { value: e.target.value })} />
            <button type="button" className="button button-small" onClick={() => setOthers((rows) => rows.filter((_, i) => i !== index))}>
              Remove <span className="visually-hidden">other social {index + 1}</span>
            </button>
          </div>
        ))}
        <button type="button" className="button button-small" onClick={() => setOthers((rows) => [...rows, { key: '', value: '' }])}>
          Add another social
        </button>
        {errors.fields.socials ? <p className="field-error">{errors.fields.socials}</p> : null}
      </fieldset>
      <TextAreaField label="Internal note" value={note} onChange={(e) => setNote(e.target.value)} error={errors.fields.note} hint="Only staff see this." />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : customer ? 'Save customer' : 'Create customer'}
        </button>
      </div>
    </form>
  );
}
