// The signed-in frame: header with the account and sign-out, the permitted sections as
// navigation (a toggled menu on narrow screens), and the page. Without a session it
// sends the visitor to sign-in, remembering where they wanted to go.
import { useEffect, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { FlashMessages } from '../../components/flash-messages';
import { signOut } from '../../features/account/api/account';
import { useSession } from '../../hooks/use-session';
import { visibleNavItems } from '../navigation';

export function AppLayout() {
  const current = useSession();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => setMenuOpen(false), [location.pathname]);

  if (!current) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Licensing admin</span>
        <button
          type="button"
          className="button menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <div className="account">
          <a className="docs-link" href="/docs" target="_blank" rel="noreferrer">
            API reference ↗
          </a>
          <span title={current.user.role}>
            {current.user.username} <span className="muted">({current.user.role || 'no role'})</span>
          </span>
          <Link to="/account">Account</Link>
          <Link to="/api-tokens">API tokens</Link>
          <button type="button" className="button button-small" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <nav id="main-nav" className={`sidebar${menuOpen ? ' open' : ''}`} aria-label="Sections">
        <ul>
          {visibleNavItems(current.user).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === '/'}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <FlashMessages />
        <Outlet />
      </main>
    </div>
  );
}
