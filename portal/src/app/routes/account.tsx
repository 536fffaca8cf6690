import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/status';
import { signOut, useAccount } from '../../features/account/api/account';
import { ChangePasswordForm } from '../../features/account/components/change-password-form';
import { TwoFactorPanel } from '../../features/account/components/two-factor-panel';
import { login } from '../../features/auth/api/login';
import { session } from '../../lib/session';

export function AccountPage() {
  const account = useAccount();
  return (
    <>
      <PageHeader
        title="Your account"
        actions={
          <button type="button" className="button" onClick={() => void signOut()}>
            Sign out
          </button>
        }
      />
      <QueryState query={account}>
        {(me) => (
          <>
            <p>
              Signed in as <strong>{me.username}</strong> ({me.role || 'no role'}). Scripts and integrations should use{' '}
              <Link to="/api-tokens">API tokens</Link>.
            </p>
            <ChangePasswordForm
              onChanged={(newPassword) =>
                // The change ended this tab's token too: sign in again with the new password.
                void login({ username: me.username, password: newPassword })
                  .then((response) => session.start(response))
                  .catch(() => session.end('expired'))
              }
            />
            <TwoFactorPanel enabled={me.totpEnabled} />
          </>
        )}
      </QueryState>
    </>
  );
}
