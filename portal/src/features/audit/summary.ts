// One line per audit entry: which record changed, and where to see it.

export interface AuditSummary {
  /** e.g. "Customer Acme Ltd" */
  text: string;
  /** Portal path of the record; null when it was deleted or has no page. */
  to: string | null;
}

const KINDS: Record<string, { label: string; path: (id: string) => string | null }> = {
  customers: { label: 'Customer', path: (id) => `/customers/${id}` },
  products: { label: 'Product', path: (id) => `/products/${id}` },
  licenses: { label: 'License', path: (id) => `/licenses/${id}` },
  orders: { label: 'Order', path: (id) => `/orders/${id}` },
  roles: { label: 'Role', path: (id) => `/roles/${id}` },
  staff: { label: 'Staff account', path: () => '/staff' },
  registrationKey: { label: 'Registration key', path: () => '/registration-keys' },
  marketplace: { label: 'License', path: (id) => `/licenses/${id}` },
};

function parse(data: string): Record<string, unknown> {
  try {
    const value = JSON.parse(data) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function auditSummary(entry: { name: string; data: string }): AuditSummary {
  const kind = KINDS[entry.name.split('.')[0] ?? ''];
  const data = parse(entry.data);
  // Marketplace entries name the license they issued or re-returned.
  const id = text(data.id) ?? text(data.licenseId) ?? text(data.licenseKey);
  const name = text(data.name) ?? text(data.username);
  if (!kind) return { text: name ?? id ?? '—', to: null };
  const label = `${kind.label} ${name ?? id ?? ''}`.trim();
  const deleted = entry.name.endsWith('.delete');
  return { text: deleted ? `${label} (deleted)` : label, to: !deleted && id ? kind.path(id) : null };
}
