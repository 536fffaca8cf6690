import { describe, expect, it } from 'vitest';
import { auditSummary } from './summary';

describe('auditSummary', () => {
  it('names the record and links to it', () => {
    expect(auditSummary({ name: 'customers.update', data: '{"id":"c1","name":"Acme"}' })).toEqual({ text: 'Customer Acme', to: '/customers/c1' });
    expect(auditSummary({ name: 'licenses.create', data: '{"id":"AAAAA-BBBBB","productId":"p"}' })).toEqual({ text: 'License AAAAA-BBBBB', to: '/licenses/AAAAA-BBBBB' });
    expect(auditSummary({ name: 'staff.create', data: '{"id":"s1","username":"ann"}' })).toEqual({ text: 'Staff account ann', to: '/staff' });
  });

  it('does not link deleted records and survives odd data', () => {
    expect(auditSummary({ name: 'products.delete', data: '{"id":"p1","name":"Tool"}' })).toEqual({ text: 'Product Tool (deleted)', to: null });
    expect(auditSummary({ name: 'something.else', data: 'not json' })).toEqual({ text: '—', to: null });
  });
});
