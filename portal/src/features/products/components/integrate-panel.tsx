// "Integrate": what a vendor pastes into the client software to validate this product.
import { CopyButton } from '../../../components/copy-button';
import { QueryState } from '../../../components/status';
import { useJwks } from '../../signing-keys/api/signing-keys';
import { integrationSnippets } from './integration-snippets';

export function IntegratePanel({ productId }: { productId: string }) {
  const jwks = useJwks();
  const serviceUrl = window.location.origin;
  return (
    <section className="card" aria-labelledby="integrate-title" data-testid="integrate-panel">
      <h2 id="integrate-title">Integrate</h2>
      <p className="muted">
        Ship the key set with your application (pinned: the client never fetches keys at run time) and validate with a client library.
        See docs/client-integration.md.
      </p>
      <div className="snippet">
        <div className="snippet-head">
          <h3>Product id</h3>
          <CopyButton text={productId} label="Copy product id" />
        </div>
        <code data-testid="integrate-product-id">{productId}</code>
      </div>
      <div className="snippet">
        <QueryState query={jwks}>
          {(set) => (
            <>
              <div className="snippet-head">
                <h3>jwks.json (public keys to pin)</h3>
                <CopyButton text={JSON.stringify(set, null, 2)} label="Copy JWK Set" />
              </div>
              <pre className="code-block" data-testid="integrate-jwks">{JSON.stringify(set, null, 2)}</pre>
            </>
          )}
        </QueryState>
      </div>
      {integrationSnippets(serviceUrl, productId).map((snippet) => (
        <div className="snippet" key={snippet.id}>
          <div className="snippet-head">
            <h3>{snippet.title}</h3>
            <CopyButton text={snippet.code} label={`Copy ${snippet.id} snippet`} />
          </div>
          <pre className="code-block" data-testid={`snippet-${snippet.id}`}>{snippet.code}</pre>
        </div>
      ))}
    </section>
  );
}
