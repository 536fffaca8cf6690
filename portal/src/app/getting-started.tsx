// The dashboard's first-steps list for a new installation: create a product, issue a license,
// integrate (a first validation arrives), add a webhook endpoint. Shown until there is a
// product, a license and a validation; each step is ticked once done and links to where it
// is done. Steps the account may not take are left out.
import { Link } from 'react-router';
import { useWebhookEndpoints } from '../features/webhooks/api/webhook-endpoints';
import { useCan } from '../hooks/use-session';

export interface SetupFacts {
  products: number | undefined;
  /** A product to integrate (the first one the dashboard's count request answered). */
  firstProductId: string | undefined;
  licenses: number | undefined;
  validations: number | undefined;
}

/** Whether the list is still needed: undefined while a count is loading (nothing shown yet). */
export function needsGettingStarted(facts: SetupFacts): boolean | undefined {
  if (facts.products === undefined || facts.licenses === undefined || facts.validations === undefined) return undefined;
  return facts.products === 0 || facts.licenses === 0 || facts.validations === 0;
}

function Step({ done, to, title, children }: { done: boolean; to: string; title: string; children: string }) {
  return (
    <li className={done ? 'step step-done' : 'step'} data-testid="getting-started-step">
      <span className="step-mark" aria-hidden="true">
        {done ? '✓' : ''}
      </span>
      <span>
        <Link to={to}>{title}</Link>
        {done ? <span className="visually-hidden"> (done)</span> : null}
        <span className="step-text muted">{children}</span>
      </span>
    </li>
  );
}

export function GettingStarted({ facts }: { facts: SetupFacts }) {
  const can = {
    products: useCan('products:write'),
    licenses: useCan('licenses:write'),
    integrate: useCan('products:read'),
    webhooksRead: useCan('webhooks:read'),
    webhooks: useCan('webhooks:write'),
  };
  const show = needsGettingStarted(facts) === true && (can.products || can.licenses || can.webhooks);
  // Only read while the list shows: an established dashboard requests no lists.
  const endpoints = useWebhookEndpoints(show && can.webhooksRead);
  if (!show) return null;
  return (
    <section className="card getting-started" aria-labelledby="getting-started-title">
      <h2 id="getting-started-title">Getting started</h2>
      <ol className="steps">
        {can.products ? (
          <Step done={(facts.products ?? 0) > 0} to="/products/new" title="Create a product">
            What you sell, with the default IP and HWID limits of its licenses.
          </Step>
        ) : null}
        {can.licenses ? (
          <Step done={(facts.licenses ?? 0) > 0} to="/licenses/new" title="Issue a license">
            A key for a customer (or let a marketplace webhook issue them on each sale).
          </Step>
        ) : null}
        {can.integrate ? (
          <Step done={(facts.validations ?? 0) > 0} to={facts.firstProductId ? `/products/${facts.firstProductId}` : '/products'} title="Integrate">
            Add the client library to your software (the Integrate panel on the product's page) and validate a key once.
          </Step>
        ) : null}
        {can.webhooks ? (
          <Step done={(endpoints.data?.length ?? 0) > 0} to="/webhooks/new" title="Add a webhook">
            Hear of new licenses, validations and refunds in your own systems or a Discord channel.
          </Step>
        ) : null}
      </ol>
    </section>
  );
}
