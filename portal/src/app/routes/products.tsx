// Products: search by name, sortable, paged; newest first.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { TextField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { Pagination } from '../../components/pagination';
import { EmptyState, QueryState } from '../../components/status';
import { useProducts } from '../../features/products/api/get-products';
import { ProductsTable } from '../../features/products/components/products-table';
import { useListParams } from '../../hooks/use-list-params';
import { useCan } from '../../hooks/use-session';
import { pageQuery } from '../../lib/pagination';

const PAGE_SIZE = 20;
const SORTABLE = ['createdAt', 'name', 'price'];

export function ProductsPage() {
  const list = useListParams(SORTABLE, ['q']);
  const q = list.filters.q ?? '';
  const [draft, setDraft] = useState(q);
  const products = useProducts({ q: q || undefined, ...list.sortQuery, ...pageQuery(list.page, PAGE_SIZE) });
  const canWrite = useCan('products:write');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    list.update({ filters: { q: draft.trim() } });
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
      <QueryState query={products} empty={<EmptyState title={q ? 'No product matches.' : 'No products yet.'} />} isEmpty={(page) => page.total === 0}>
        {({ records, total }) => (
          <>
            {records.length === 0 ? <EmptyState title="No more products." /> : <ProductsTable products={records} sorting={list} />}
            <Pagination page={list.page} pageSize={PAGE_SIZE} shown={records.length} total={total} onPage={list.setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
