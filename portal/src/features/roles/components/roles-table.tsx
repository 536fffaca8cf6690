import { Link } from 'react-router';
import { Table } from '../../../components/table';
import { groupPermissions } from '../../../lib/authorization';
import type { Role } from '../../../types/api';

export function RolesTable({ roles }: { roles: Role[] }) {
  return (
    <Table
      caption="Roles"
      head={
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Permissions</th>
        </tr>
      }
    >
      {roles.map((role) => (
        <tr key={role.id}>
          <td>
            <Link to={`/roles/${role.id}`}>{role.name}</Link>
          </td>
          <td>
            {Object.entries(groupPermissions(role.permissions)).map(([resource, actions]) => (
              <span key={resource} className="chip">
                {resource}: {actions.join(', ')}
              </span>
            ))}
            {role.permissions.length === 0 ? <span className="muted">None</span> : null}
          </td>
        </tr>
      ))}
    </Table>
  );
}
