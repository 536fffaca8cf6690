// Create a product, or view/edit one (read-only view without products:write).
import { useNavigate, useParams } from 'react-router';
import { DeleteButton } from '../../components/delete-button';
import { PageHeader } from '../../components/page-header';
import { Notice, QueryState } from '../../components/status';
import { useCreateProduct } from '../../features/products/api/create-product';
import { useDeleteProduct } from '../../features/products/api/delete-product';
import { useProduct } from '../../features/products/api/get-product';
import { useUpdateProduct } from '../../features/products/api/update-product';
import { ProductDetails } from '../../features/products/components/product-details';
import { IntegratePanel } from '../../features/products/components/integrate-panel';
import { ProductForm } from '../../features/products/components/product-form';
import { useCan } from '../../hooks/use-session';

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
                  onDeleted={() => navigate('/products')}
                />
              ) : null
            }
          />
          {update.isSuccess ? <Notice tone="success">Product saved. Existing licenses keep their limits; new ones get the new defaults.</Notice> : null}
          {canWrite ? (
            <ProductForm key={JSON.stringify(data)} product={data} saving={update.isPending} error={update.error} onSubmit={(input) => update.mutate({ id, input })} />
          ) : (
            <ProductDetails product={data} />
          )}
          <IntegratePanel productId={id} />
        </>
      )}
    </QueryState>
  );
}
