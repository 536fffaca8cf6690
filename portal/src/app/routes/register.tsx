import { useState } from 'react';
import { Link } from 'react-router';
import { Notice } from '../../components/status';
import { RegisterForm } from '../../features/auth/components/register-form';

export function RegisterPage() {
  const [registered, setRegistered] = useState<{ username: string; roleCount: number } | null>(null);
  return (
    <main className="centered">
      {registered ? (
        <div className="card">
          <Notice tone="success">
            Account {registered.username} created.{' '}
            {registered.roleCount > 0 ? 'It has the roles of your registration key.' : 'An administrator will assign your roles.'}
          </Notice>
          <Link className="button button-primary" to="/sign-in">
            Go to sign in
          </Link>
        </div>
      ) : (
        <RegisterForm onRegistered={(username, roleCount) => setRegistered({ username, roleCount })} />
      )}
      <p className="centered-note">
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </main>
  );
}
