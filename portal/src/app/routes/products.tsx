// Products: search by name, paged.
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { TextField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useProducts } from '../../features/products/api/get-products';
import { ProductsTable } from '../../features/products/components/products-table';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';

const PAGE_SIZE = 20;

export function ProductsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? '0') || 0;
  const [draft, setDraft] = useState(q);
  const products = useProducts({ q: q || undefined, ...pageQuery(page, PAGE_SIZE) });
  const canWrite = useCan('products:write');

  const go = (nextQ: string, nextPage: number) => {
    const search: Record<string, string> = {};
    if (nextQ) search.q = nextQ;
    if (nextPage) search.page = String(nextPage);
    setParams(search);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go(draft.trim(), 0);
  };

  return (
    <>
      <PageHeader
        title="Products"
        actions={
          canWrite ? (
            <Link className="button button-primary" to="/products/new">
              New product
            </Link>
          ) : null
        }
      />
      <form className="form form-inline filters" role="search" onSubmit={submit}>
        <TextField label="Name contains" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" className="button button-primary">
          Search
        </button>
      </form>
      <QueryState query={products} empty={<EmptyState title={q ? 'No product matches.' : 'No products yet.'} />} isEmpty={(list) => list.total === 0}>
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more products." /> : <ProductsTable products={records} />}
            <Pagination page={page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={(next) => go(q, next)} />
          </>
        )}
      </QueryState>
    </>
  );
}
