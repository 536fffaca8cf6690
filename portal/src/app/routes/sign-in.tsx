import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { useSession } from '../../hooks/use-session';
import { session } from '../../lib/session';

export function SignInPage() {
  const current = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/';

  if (current) return <Navigate to={from} replace />;
  return (
    <main className="centered">
      <SignInForm endReason={session.endReason()} onSignedIn={() => navigate(from, { replace: true })} />
      <p className="centered-note">
        New staff member with a registration key? <Link to="/register">Create your account</Link>
      </p>
    </main>
  );
}
