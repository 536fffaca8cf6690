// Customer and product names for tables that hold only ids. Loads the lists only for
// accounts allowed to read them; product names also come from GET /products/names for
// accounts that read licenses but not products. Others see shortened ids.
import { useMemo } from 'react';
import { useCustomers } from '../features/customers/api/get-customers';
import { useProductNames } from '../features/products/api/get-product-names';
import { useProducts } from '../features/products/api/get-products';
import { useCan } from '../hooks/use-session';
import type { ProductName } from '../types/api';

const shortId = (id: string) => `${id.slice(0, 8)}…`;

export function useNames() {
  const canReadCustomers = useCan('customers:read');
  const canReadProducts = useCan('products:read');
  const canReadLicenses = useCan('licenses:read');
  const customers = useCustomers({}, canReadCustomers);
  const products = useProducts({}, canReadProducts);
  const productNames = useProductNames(!canReadProducts && canReadLicenses);
  return useMemo(() => {
    const customerList = customers.data?.records ?? [];
    const productList: ProductName[] = products.data?.records ?? productNames.data ?? [];
    const customerNames = new Map(customerList.map((c) => [c.id, c.name]));
    const productNameMap = new Map(productList.map((p) => [p.id, p.name]));
    const isPending = customers.isLoading || products.isLoading || productNames.isLoading;
    // Issuing needs a product and a customer to choose from.
    const issueHint = isPending
      ? ''
      : !canReadCustomers || !(canReadProducts || canReadLicenses)
        ? 'Issuing a license needs permission to read customers and licenses or products.'
        : productList.length === 0
          ? 'Create a product before issuing licenses.'
          : customerList.length === 0
            ? 'Create a customer before issuing licenses.'
            : '';
    return {
      customer: (id: string) => customerNames.get(id) ?? shortId(id),
      product: (id: string) => productNameMap.get(id) ?? shortId(id),
      customers: customerList,
      products: productList,
      isPending,
      canIssue: !isPending && issueHint === '',
      issueHint,
    };
  }, [customers.data, products.data, productNames.data, customers.isLoading, products.isLoading, productNames.isLoading, canReadCustomers, canReadProducts, canReadLicenses]);
}
