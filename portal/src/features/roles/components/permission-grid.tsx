// Resources down, actions across; a checkbox where the resource has that action.
import { RESOURCE_ACTIONS, RESOURCES } from '../../../lib/authorization';

const ACTIONS = ['read', 'write', 'delete', 'manage'] as const;
const RESOURCE_LABELS: Record<string, string> = { actions: 'audit log (actions)' };

export function PermissionGrid({
  value,
  onChange,
  readOnly = false,
}: {
  value: string[];
  onChange?: (permissions: string[]) => void;
  readOnly?: boolean;
}) {
  const toggle = (permission: string) =>
    onChange?.(value.includes(permission) ? value.filter((p) => p !== permission) : [...value, permission]);

  return (
    <div className="table-wrap">
      <table className="permission-grid">
        <caption>Permissions</caption>
        <thead>
          <tr>
            <th scope="col">Resource</th>
            {ACTIONS.map((action) => (
              <th scope="col" key={action}>
                {action}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {RESOURCES.map((resource) => (
            <tr key={resource}>
              <th scope="row">{RESOURCE_LABELS[resource] ?? resource}</th>
              {ACTIONS.map((action) => {
                const permission = `${resource}:${action}`;
                if (!RESOURCE_ACTIONS[resource].includes(action)) return <td key={action} aria-hidden="true" />;
                return (
                  <td key={action}>
                    <input
                      type="checkbox"
                      aria-label={permission}
                      checked={value.includes(permission)}
                      disabled={readOnly}
                      onChange={() => toggle(permission)}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
