// Customer and product names for tables that hold only ids. Loads the lists only for
// accounts allowed to read them; others see shortened ids.
import { useMemo } from 'react';
import { useCustomers } from '../features/customers/api/get-customers';
import { useProducts } from '../features/products/api/get-products';
import { useCan } from '../hooks/use-session';

const shortId = (id: string) => `${id.slice(0, 8)}…`;

export function useNames() {
  const customers = useCustomers({}, useCan('customers:read'));
  const products = useProducts({}, useCan('products:read'));
  return useMemo(() => {
    const customerList = customers.data?.records ?? [];
    const productList = products.data?.records ?? [];
    const customerNames = new Map(customerList.map((c) => [c.id, c.name]));
    const productNames = new Map(productList.map((p) => [p.id, p.name]));
    return {
      customer: (id: string) => customerNames.get(id) ?? shortId(id),
      product: (id: string) => productNames.get(id) ?? shortId(id),
      customers: customerList,
      products: productList,
      isPending: customers.isLoading || products.isLoading,
    };
  }, [customers.data, products.data, customers.isLoading, products.isLoading]);
}
