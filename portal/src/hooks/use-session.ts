// React access to the signed-in session and its permissions.
import { useSyncExternalStore } from 'react';
import { hasPermission, type Requirement } from '../lib/authorization';
import { session, type Session } from '../lib/session';

export function useSession(): Session | null {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** Whether the signed-in account holds `required` (a permission string or MASTER_ADMIN). */
export function useCan(required: Requirement): boolean {
  return hasPermission(useSession()?.user, required);
}
