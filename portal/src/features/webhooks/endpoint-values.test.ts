import { describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../../types/api';
import { NEW_ENDPOINT, draftFrom, endpointBody, endpointState } from './endpoint-values';

const endpoint: WebhookEndpoint = {
  id: 'e1',
  url: 'https://example.com/hook',
  events: ['licenses.create'],
  format: 'discord',
  description: null,
  enabled: true,
  failingSinceEpochMillis: null,
  disabledReason: null,
  createdAtEpochMillis: 1,
  updatedAtEpochMillis: 2,
};

describe('endpoint form values', () => {
  it('starts a new endpoint enabled, standard, without events', () => {
    expect(NEW_ENDPOINT).toEqual({ url: '', events: [], format: 'standard', description: '', enabled: true });
  });

  it('round-trips an endpoint through the form into a full PUT body', () => {
    expect(endpointBody(draftFrom(endpoint))).toEqual({ url: 'https://example.com/hook', events: ['licenses.create'], format: 'discord', description: null, enabled: true });
  });

  it('trims the URL and description, and sends an emptied description as null (cleared)', () => {
    expect(endpointBody({ ...NEW_ENDPOINT, url: '  https://x.test/h ', description: '  shop ', events: ['*'] })).toMatchObject({ url: 'https://x.test/h', description: 'shop', events: ['*'] });
    expect(endpointBody({ ...NEW_ENDPOINT, description: '   ' }).description).toBeNull();
  });
});

describe('endpointState', () => {
  it('tells enabled, failing, disabled by a person and disabled by the service apart', () => {
    expect(endpointState(endpoint)).toEqual({ kind: 'enabled' });
    expect(endpointState({ ...endpoint, failingSinceEpochMillis: 5 })).toEqual({ kind: 'failing', sinceEpochMillis: 5 });
    expect(endpointState({ ...endpoint, enabled: false, failingSinceEpochMillis: 5 })).toEqual({ kind: 'disabled' });
    expect(endpointState({ ...endpoint, enabled: false, disabledReason: 'failing for 5 days' })).toEqual({ kind: 'disabledByService', reason: 'failing for 5 days' });
  });
});
