import { Link } from 'react-router';
import { SortHeader, type SortControl } from '../../../components/sort-header';
import { Table } from '../../../components/table';
import { Time } from '../../../components/time';
import type { Customer } from '../../../types/api';

/** `sorting`: the column headers sort the list (server-side). */
export function CustomersTable({ customers, sorting }: { customers: Customer[]; sorting?: SortControl }) {
  return (
    <Table
      caption="Customers"
      head={
        <tr>
          <SortHeader field="name" control={sorting}>
            Name
          </SortHeader>
          <SortHeader field="email" control={sorting}>
            Email
          </SortHeader>
          <th scope="col">Socials</th>
          <SortHeader field="createdAt" control={sorting}>
            Created
          </SortHeader>
        </tr>
      }
    >
      {customers.map((customer) => (
        <tr key={customer.id}>
          <td>
            <Link to={`/customers/${customer.id}`}>{customer.name}</Link>
          </td>
          <td>{customer.email}</td>
          <td>
            {Object.entries(customer.socials ?? {}).map(([key, value]) => (
              <span className="chip" key={key}>
                {key}: {value}
              </span>
            ))}
          </td>
          <td className="nowrap"><Time at={customer.createdAtEpochMillis} /></td>
        </tr>
      ))}
    </Table>
  );
}
