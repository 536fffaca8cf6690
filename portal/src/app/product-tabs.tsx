// The product page's tabs: its details and, for accounts that may read them, its releases.
import { NavLink } from 'react-router';
import { useCan } from '../hooks/use-session';

export function ProductTabs({ productId }: { productId: string }) {
  const canReadReleases = useCan('releases:read');
  if (!canReadReleases) return null;
  const base = `/products/${encodeURIComponent(productId)}`;
  return (
    <nav className="tabs" aria-label="Product sections">
      <NavLink to={base} end>
        Details
      </NavLink>
      <NavLink to={`${base}/releases`}>Releases</NavLink>
    </nav>
  );
}
