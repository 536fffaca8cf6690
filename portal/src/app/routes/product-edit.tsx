// Create a product, or view/edit one (read-only view without products:write).
import { useNavigate, useParams } from 'react-router';
import { DeleteButton } from '../../components/delete-button';
import { IdRow } from '../../components/id-row';
import { PageHeader } from '../../components/page-header';
import { Notice, QueryState } from '../../components/status';
import { useCreateProduct } from '../../features/products/api/create-product';
import { useDeleteProduct } from '../../features/products/api/delete-product';
import { useProduct } from '../../features/products/api/get-product';
import { useUpdateProduct } from '../../features/products/api/update-product';
import { ProductDetails } from '../../features/products/components/product-details';
import { IntegratePanel } from '../../features/products/components/integrate-panel';
import { ProductForm } from '../../features/products/components/product-form';
import { TiersPanel } from '../../features/products/components/tiers-panel';
import { useLicenses } from '../../features/licenses/api/get-licenses';
import { useOrders } from '../../features/orders/api/get-orders';
import { useCan } from '../../hooks/use-session';
import { referencesText } from '../../lib/references';
import { ProductTabs } from '../product-tabs';

export function ProductCreatePage() {
  const navigate = useNavigate();
  const create = useCreateProduct();
  return (
    <>
      <PageHeader title="New product" back={{ to: '/products', label: 'Products' }} />
      <ProductForm saving={create.isPending} error={create.error} onSubmit={(input) => create.mutate(input, { onSuccess: () => navigate('/products') })} />
    </>
  );
}

export function ProductEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const product = useProduct(id);
  const update = useUpdateProduct();
  const remove = useDeleteProduct();
  const canWrite = useCan('products:write');
  const canDelete = useCan('products:delete');
  // Only the totals: whether Delete can succeed.
  const canReadLicenses = useCan('licenses:read');
  const canReadOrders = useCan('orders:read');
  const licenses = useLicenses({ productId: id, limit: 1 }, canDelete && canReadLicenses);
  const orders = useOrders({ productId: id, limit: 1 }, canDelete && canReadOrders);

  return (
    <QueryState query={product}>
      {(data) => (
        <>
          <PageHeader
            title={data.name}
            back={{ to: '/products', label: 'Products' }}
            actions={
              canDelete ? (
                <DeleteButton
                  id={id}
                  what={`product ${data.name}`}
                  mutation={remove}
                  conflictHelp="Licenses or orders still refer to this product. Delete those first."
                  blockedBy={referencesText(licenses.data?.total, orders.data?.total)}
                  onDeleted={() => navigate('/products')}
                />
              ) : null
            }
          />
          <ProductTabs productId={id} />
          <IdRow label="Product id" id={data.id} />
          {update.isSuccess ? <Notice tone="success">Product saved. Existing licenses keep their limits; new ones get the new defaults.</Notice> : null}
          {canWrite ? (
            // Keyed by everything but the tiers: a tier saved in the panel keeps unsaved edits here.
            <ProductForm key={JSON.stringify({ ...data, tiers: undefined })} product={data} saving={update.isPending} error={update.error} onSubmit={(input) => update.mutate({ id, input })} />
          ) : (
            <ProductDetails product={data} />
          )}
          <TiersPanel product={data} canWrite={canWrite} />
          <IntegratePanel productId={id} />
        </>
      )}
    </QueryState>
  );
}
