// Event names of SPEC.md and DECISIONS.md, offered as filter suggestions.
export const EVENT_NAMES = [
  'customers.create', 'customers.update', 'customers.delete',
  'products.create', 'products.update', 'products.delete',
  'licenses.create', 'licenses.update', 'licenses.delete',
  'orders.create', 'orders.update', 'orders.delete',
  'roles.create', 'roles.update', 'roles.delete',
  'staff.create', 'staff.setActive', 'staff.delete', 'staff.setRoles',
  'registrationKey.generate',
  'marketplace.license.create', 'marketplace.license.reuse', 'marketplace.license.reject',
];
