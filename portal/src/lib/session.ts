// The signed-in session: the login token and user, kept in localStorage so that a new
// tab of the portal is signed in too; signing out (or expiry) in one tab ends it in all. A tiny external store so React components
// re-render on sign-in, sign-out and expiry (useSyncExternalStore).
import type { LoginResponse, SessionUser } from '../types/api';

export interface Session {
  token: string;
  user: SessionUser;
}

/** Why the last session ended, shown on the sign-in page. */
export type EndReason = 'signed-out' | 'expired' | null;

const STORAGE_KEY = 'licensing-portal.session';

let current: Session | null = read();
let endReason: EndReason = null;
const listeners = new Set<() => void>();

function storage(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

// Another tab signed in or out: follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY) return;
    const next = read();
    if (next?.token === current?.token) return;
    if (!next && current) endReason = 'signed-out';
    current = next;
    emit();
  });
}

function read(): Session | null {
  try {
    const raw = storage()?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Session;
    return typeof parsed.token === 'string' && parsed.user ? parsed : null;
  } catch {
    return null;
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

export const session = {
  get(): Session | null {
    return current;
  },
  token(): string | null {
    return current?.token ?? null;
  },
  endReason(): EndReason {
    return endReason;
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  start(login: LoginResponse): void {
    current = { token: login.token, user: login.user };
    endReason = null;
    storage()?.setItem(STORAGE_KEY, JSON.stringify(current));
    emit();
  },
  end(reason: Exclude<EndReason, null>): void {
    if (!current) return;
    current = null;
    endReason = reason;
    storage()?.removeItem(STORAGE_KEY);
    emit();
  },
};
