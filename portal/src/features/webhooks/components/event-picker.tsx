// Which events an endpoint receives: all of them (`["*"]`, types added later included) or
// the chosen ones, grouped by what they are about.
import { CheckboxField } from '../../../components/field';
import { PickList } from '../../../components/pick-list';
import { ErrorMessage, Loading } from '../../../components/status';
import { useWebhookEventTypes } from '../api/webhook-endpoints';
import { ALL_EVENTS, groupEventTypes, subscribesToAll } from '../event-types';

export function EventPicker({ value, onChange, error }: { value: string[]; onChange: (events: string[]) => void; error?: string }) {
  const known = useWebhookEventTypes();
  const all = subscribesToAll(value);
  // Types the endpoint already has stay listed even if the service no longer names them.
  const groups = groupEventTypes([...(known.data ?? []), ...value]);
  const setGroup = (groupTypes: string[], chosen: string[]) => onChange([...value.filter((type) => !groupTypes.includes(type)), ...chosen]);

  return (
    <fieldset className={error ? 'field-invalid' : undefined}>
      <legend>Events</legend>
      <CheckboxField
        label="All events"
        checked={all}
        onChange={(e) => onChange(e.target.checked ? [ALL_EVENTS] : [])}
        hint="Every type, including those a later release adds."
      />
      {all ? null : known.isPending ? (
        <Loading label="Loading event types…" />
      ) : (
        <>
          <ErrorMessage error={known.error} title="Event types could not be loaded:" onRetry={() => void known.refetch()} />
          <div className="event-groups">
            {groups.map((group) => (
              <PickList
                key={group.id}
                legend={group.label}
                options={group.types.map((type) => ({ id: type, label: type, mono: true }))}
                selected={value.filter((type) => group.types.includes(type))}
                onChange={(chosen) => setGroup(group.types, chosen)}
                empty=""
              />
            ))}
          </div>
        </>
      )}
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}
