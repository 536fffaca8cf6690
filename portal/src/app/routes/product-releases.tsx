// A product's Releases tab: its releases newest first (20 a page, the page in the address)
// and, with releases:write, the form for a new one, which opens the release for its upload.
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useProduct } from '../../features/products/api/get-product';
import { useCreateRelease, useReleases } from '../../features/releases/api/releases';
import { ReleaseCreateForm } from '../../features/releases/components/release-create-form';
import { ReleasesTable } from '../../features/releases/components/releases-table';
import { useListParams } from '../../hooks/use-list-params';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';
import { ProductTabs } from '../product-tabs';

const PAGE_SIZE = 20;

export const releasePagePath = (productId: string, releaseId: string) =>
  `/products/${encodeURIComponent(productId)}/releases/${encodeURIComponent(releaseId)}`;

export function ProductReleasesPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const product = useProduct(id);
  const list = useListParams([], []);
  const releases = useReleases(id, pageQuery(list.page, PAGE_SIZE));
  const create = useCreateRelease(id);
  const canWrite = useCan('releases:write');

  return (
    <>
      <PageHeader
        title={product.data ? `${product.data.name}: releases` : 'Releases'}
        back={{ to: '/products', label: 'Products' }}
      />
      <ProductTabs productId={id} />
      <QueryState
        query={releases}
        empty={<EmptyState title="No releases yet.">{canWrite ? <p>Create one below, upload its file, then publish it.</p> : null}</EmptyState>}
        isEmpty={(page) => page.total === 0}
      >
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more releases." /> : <ReleasesTable releases={records} releasePath={(release) => releasePagePath(id, release.id)} />}
            <Pagination page={list.page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={list.setPage} />
          </>
        )}
      </QueryState>
      {canWrite ? (
        <ReleaseCreateForm
          saving={create.isPending}
          error={create.error}
          onSubmit={(input) => create.mutate(input, { onSuccess: (release) => navigate(releasePagePath(id, release.id)) })}
        />
      ) : null}
    </>
  );
}
