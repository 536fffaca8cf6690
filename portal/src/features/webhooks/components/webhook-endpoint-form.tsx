// Create or replace a webhook endpoint. The API's 400 (a private or non-http URL, an
// unknown event type) names the field; it is shown beside that field.
import { useState, type FormEvent } from 'react';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../../components/field';
import { Notice } from '../../../components/status';
import { useCheckedForm } from '../../../hooks/use-checked-form';
import { required, type Check } from '../../../lib/form-checks';
import type { WebhookEndpointInput, WebhookFormat } from '../../../types/api';
import { NEW_ENDPOINT, endpointBody, type EndpointDraft } from '../endpoint-values';
import { FORMAT_LABELS } from '../format-labels';
import { EventPicker } from './event-picker';

const FIELDS = ['url', 'events', 'format', 'description', 'enabled'] as const;
const atLeastOneEvent: Check = (joined) => (joined === '' ? 'Choose at least one event, or All events.' : null);
const FORMAT_HINTS: Record<WebhookFormat, string> = {
  standard: 'Signed JSON events (the Standard Webhooks convention): verify them with the secret.',
  discord: 'A Discord channel webhook URL: each event becomes a message. Not signed.',
};

export function WebhookEndpointForm({
  initial = NEW_ENDPOINT,
  saving,
  error,
  submitLabel,
  onSubmit,
}: {
  initial?: EndpointDraft;
  saving: boolean;
  error: unknown;
  submitLabel: string;
  onSubmit: (input: WebhookEndpointInput) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const change = (patch: Partial<EndpointDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const errors = useCheckedForm({ url: draft.url, events: draft.events.join(',') }, { url: required, events: atLeastOneEvent }, error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (errors.check()) onSubmit(endpointBody(draft));
  };

  return (
    <form className="form card" onSubmit={submit} noValidate>
      {errors.form ? <Notice tone="warning">{errors.form}</Notice> : null}
      <TextField
        label="URL"
        type="url"
        required
        value={draft.url}
        onChange={(e) => change({ url: e.target.value })}
        error={errors.fields.url}
        placeholder="https://example.com/hooks/licensing"
        hint="http(s) on a public host: addresses on private networks are refused."
        autoComplete="off"
      />
      <EventPicker value={draft.events} onChange={(events) => change({ events })} error={errors.fields.events} />
      <SelectField label="Format" value={draft.format} onChange={(e) => change({ format: e.target.value as WebhookFormat })} error={errors.fields.format} hint={FORMAT_HINTS[draft.format]}>
        {(Object.keys(FORMAT_LABELS) as WebhookFormat[]).map((format) => (
          <option key={format} value={format}>
            {FORMAT_LABELS[format]}
          </option>
        ))}
      </SelectField>
      <TextAreaField label="Description (optional)" maxLength={500} value={draft.description} onChange={(e) => change({ description: e.target.value })} error={errors.fields.description} hint="What the endpoint is for." />
      <CheckboxField label="Enabled" checked={draft.enabled} onChange={(e) => change({ enabled: e.target.checked })} hint="A disabled endpoint gets no new events; enabling it again resumes those still pending." />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
