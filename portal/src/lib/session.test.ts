import { describe, expect, it, vi } from 'vitest';
import { session } from './session';

const login = { token: 't', user: { username: 'ann', isMasterAdmin: false, permissions: ['customers:read'], role: 'Support' } };

describe('session', () => {
  it('starts, notifies, and ends with a reason the sign-in page shows', () => {
    const listener = vi.fn();
    const unsubscribe = session.subscribe(listener);
    session.start(login);
    expect(session.token()).toBe('t');
    expect(session.get()?.user.username).toBe('ann');
    session.end('expired');
    expect(session.get()).toBeNull();
    expect(session.endReason()).toBe('expired');
    expect(listener).toHaveBeenCalledTimes(2);
    session.end('signed-out');
    expect(session.endReason()).toBe('expired');
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});
