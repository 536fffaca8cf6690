// A file chosen by dropping it on the zone or with the file picker; either hands the one
// file to `onFile`. Disabled while a file is on its way. The input is
// visually hidden behind its label, which looks like a button and shows the input's focus.
import { useId, useState, type DragEvent, type ReactNode } from 'react';

export function FileDropZone({
  label,
  hint,
  accept,
  disabled = false,
  onFile,
}: {
  /** The picker's label, e.g. "Choose a file". */
  label: string;
  hint: ReactNode;
  accept?: string;
  disabled?: boolean;
  onFile: (file: File) => void;
}) {
  const id = useId();
  const [over, setOver] = useState(false);
  const take = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file && !disabled) onFile(file);
  };
  const dragging = (event: DragEvent, isOver: boolean) => {
    event.preventDefault();
    setOver(isOver && !disabled);
  };

  return (
    <div
      className={`drop-zone${over ? ' drop-zone-over' : ''}${disabled ? ' drop-zone-disabled' : ''}`}
      data-testid="drop-zone"
      onDragEnter={(event) => dragging(event, true)}
      onDragOver={(event) => dragging(event, true)}
      onDragLeave={(event) => dragging(event, false)}
      onDrop={(event) => {
        dragging(event, false);
        take(event.dataTransfer?.files);
      }}
    >
      <p className="drop-zone-hint">{hint}</p>
      <input
        id={id}
        className="visually-hidden"
        type="file"
        accept={accept}
        disabled={disabled}
        onChange={(event) => {
          take(event.target.files);
          // The same file chosen again (after an error) fires change again.
          event.target.value = '';
        }}
      />
      <label htmlFor={id} className={`button${disabled ? ' button-disabled' : ''}`}>
        {label}
      </label>
    </div>
  );
}
