// Who is making a request: the account and the permissions it holds at this moment, as the
// authentication hook (authenticate.ts) finds them; services receive it to check and to
// audit. Built from an account by modules/auth/actor.ts.

/** How the caller proved who they are. */
export type Credential =
  | { kind: 'login'; jti: string; expiresAtSeconds: number }
  | { kind: 'basic' }
  | { kind: 'apiToken'; tokenId: string };

export interface Actor {
  id: string;
  username: string;
  isMasterAdmin: boolean;
  /** Union of the roles' permissions, in role order; ["*"] for the Master Admin. */
  permissions: string[];
  /** Role names joined by ", "; "Master Admin" for the Master Admin. */
  roleNames: string;
  /** Set by authentication; absent on actors built for other uses (e.g. login). */
  credential?: Credential;
}
