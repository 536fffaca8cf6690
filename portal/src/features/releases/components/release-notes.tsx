// A release's notes: read, or edited and saved (PATCH) with releases:write.
import { useState, type FormEvent } from 'react';
import { TextAreaField } from '../../../components/field';
import { ErrorMessage, Notice } from '../../../components/status';
import { NOTES_MAX_LENGTH } from '../release-rules';

interface NotesMutation {
  mutate: (notes: string | null) => void;
  isPending: boolean;
  isSuccess: boolean;
  error: unknown;
  reset: () => void;
}

export function ReleaseNotes({ notes, canWrite, save }: { notes: string | null; canWrite: boolean; save: NotesMutation }) {
  const [draft, setDraft] = useState(notes ?? '');
  const tooLong = draft.length > NOTES_MAX_LENGTH;

  if (!canWrite) {
    return (
      <section className="card">
        <h2>Notes</h2>
        {notes ? <p className="release-notes">{notes}</p> : <p className="muted">No notes.</p>}
      </section>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!tooLong) save.mutate(draft.trim() === '' ? null : draft);
  };
  return (
    <form className="form card" onSubmit={submit} noValidate aria-labelledby="release-notes-heading">
      <h2 id="release-notes-heading">Notes</h2>
      <TextAreaField
        label="Release notes"
        value={draft}
        rows={5}
        onChange={(e) => {
          save.reset();
          setDraft(e.target.value);
        }}
        error={tooLong ? `At most ${NOTES_MAX_LENGTH.toLocaleString()} characters.` : null}
      />
      {save.isSuccess ? <Notice tone="success">Notes saved.</Notice> : null}
      <ErrorMessage error={save.error} title="Not saved:" />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={save.isPending || tooLong}>
          {save.isPending ? 'Saving…' : 'Save notes'}
        </button>
      </div>
    </form>
  );
}
