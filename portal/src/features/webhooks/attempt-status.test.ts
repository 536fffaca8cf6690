import { describe, expect, it } from 'vitest';
import { attemptStatus } from './components/delivery-status-badge';

describe('attemptStatus', () => {
  it('says "Pending retry" only while the retry is still to come', () => {
    expect(attemptStatus({ status: 'pending', eventStatus: 'pending' })).toMatchObject({ label: 'Pending retry', final: null });
  });

  it("shows the event's final state for an attempt whose event was delivered or given up later", () => {
    expect(attemptStatus({ status: 'pending', eventStatus: 'delivered' })).toEqual({ label: 'Retried', tone: 'badge-muted', final: 'event delivered since' });
    expect(attemptStatus({ status: 'pending', eventStatus: 'failed' })).toMatchObject({ label: 'Retried', final: 'event given up since' });
  });

  it('keeps a final attempt as it ended, noting a redelivery that changed the outcome', () => {
    expect(attemptStatus({ status: 'delivered', eventStatus: 'delivered' })).toMatchObject({ label: 'Delivered', final: null });
    expect(attemptStatus({ status: 'failed', eventStatus: 'failed' })).toMatchObject({ label: 'Failed', final: null });
    expect(attemptStatus({ status: 'failed', eventStatus: 'delivered' })).toMatchObject({ label: 'Failed', final: 'event delivered since' });
  });
});
