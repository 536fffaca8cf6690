import { Link } from 'react-router';
import { Table } from '../../../components/table';
import { formatDate } from '../../../lib/format';
import type { Customer } from '../../../types/api';

export function CustomersTable({ customers }: { customers: Customer[] }) {
  return (
    <Table
      caption="Customers"
      head={
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Socials</th>
          <th scope="col">Created</th>
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
          <td className="nowrap">{formatDate(customer.createdAtEpochMillis)}</td>
        </tr>
      ))}
    </Table>
  );
}
