// Every page of the portal. Pages are composed here from the features (app → features
// → shared); each protected page sits behind its permission Guard.
import type { ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { MASTER_ADMIN, type Requirement } from '../lib/authorization';
import { Guard } from './guard';
import { AppLayout } from './layout/app-layout';
import { AccountPage } from './routes/account';
import { ApiTokensPage } from './routes/api-tokens';
import { AuditPage } from './routes/audit';
import { CustomerCreatePage, CustomerEditPage } from './routes/customer-edit';
import { CustomerPage } from './routes/customer';
import { CustomersPage } from './routes/customers';
import { DashboardPage } from './routes/dashboard';
import { LicenseCreatePage } from './routes/license-create';
import { LicensePage } from './routes/license';
import { LicensesPage } from './routes/licenses';
import { NotFoundPage } from './routes/not-found';
import { OrderCreatePage, OrderEditPage } from './routes/order-edit';
import { OrdersPage } from './routes/orders';
import { ProductCreatePage, ProductEditPage } from './routes/product-edit';
import { ProductReleasesPage } from './routes/product-releases';
import { ReleasePage } from './routes/release';
import { ProductsPage } from './routes/products';
import { RegisterPage } from './routes/register';
import { RegistrationKeysPage } from './routes/registration-keys';
import { RoleCreatePage, RolePage } from './routes/role';
import { RolesPage } from './routes/roles';
import { SignInPage } from './routes/sign-in';
import { SigningKeysPage } from './routes/signing-keys';
import { StaffPage } from './routes/staff';
import { TracePage } from './routes/trace';
import { WebhookCreatePage, WebhookEndpointPage } from './routes/webhook';
import { WebhooksPage } from './routes/webhooks';
import { BlocklistPage } from './routes/blocklist';

const guarded = (requires: Requirement, page: ReactNode) => <Guard requires={requires}>{page}</Guard>;

export const createRouter = () =>
  createBrowserRouter(
    [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/register', element: <RegisterPage /> },
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <DashboardPage /> },
          { path: 'customers', element: guarded('customers:read', <CustomersPage />) },
          { path: 'customers/new', element: guarded('customers:write', <CustomerCreatePage />) },
          { path: 'customers/:id', element: guarded('customers:read', <CustomerPage />) },
          { path: 'customers/:id/edit', element: guarded('customers:write', <CustomerEditPage />) },
          { path: 'products', element: guarded('products:read', <ProductsPage />) },
          { path: 'products/new', element: guarded('products:write', <ProductCreatePage />) },
          { path: 'products/:id', element: guarded('products:read', <ProductEditPage />) },
          { path: 'products/:id/releases', element: guarded('products:read', guarded('releases:read', <ProductReleasesPage />)) },
          { path: 'products/:id/releases/:releaseId', element: guarded('releases:read', <ReleasePage />) },
          { path: 'licenses', element: guarded('licenses:read', <LicensesPage />) },
          { path: 'licenses/new', element: guarded('licenses:write', <LicenseCreatePage />) },
          { path: 'licenses/:id', element: guarded('licenses:read', <LicensePage />) },
          { path: 'orders', element: guarded('orders:read', <OrdersPage />) },
          { path: 'orders/new', element: guarded('orders:write', <OrderCreatePage />) },
          { path: 'orders/:id', element: guarded('orders:read', <OrderEditPage />) },
          { path: 'staff', element: guarded('staff:read', <StaffPage />) },
          { path: 'roles', element: guarded('roles:read', <RolesPage />) },
          { path: 'roles/new', element: guarded('roles:write', <RoleCreatePage />) },
          { path: 'roles/:id', element: guarded('roles:read', <RolePage />) },
          { path: 'registration-keys', element: guarded(MASTER_ADMIN, <RegistrationKeysPage />) },
          { path: 'signing-keys', element: guarded(MASTER_ADMIN, <SigningKeysPage />) },
          { path: 'webhooks', element: guarded('webhooks:read', <WebhooksPage />) },
          { path: 'webhooks/new', element: guarded('webhooks:write', <WebhookCreatePage />) },
          { path: 'webhooks/:id', element: guarded('webhooks:read', <WebhookEndpointPage />) },
          { path: 'blocklist', element: guarded('blocklist:read', <BlocklistPage />) },
          { path: 'trace', element: guarded('releases:read', <TracePage />) },
          { path: 'audit', element: guarded('actions:read', <AuditPage />) },
          { path: 'account', element: <AccountPage /> },
          { path: 'api-tokens', element: <ApiTokensPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
    { basename: '/portal' },
  );
