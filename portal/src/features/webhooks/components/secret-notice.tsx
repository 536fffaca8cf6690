// A signing secret, shown once (after creation or rotation) with a copy button: the API
// answers it only then.
import type { ReactNode } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { Notice } from '../../../components/status';

export function SecretNotice({ secret, children }: { secret: string; children: ReactNode }) {
  return (
    <Notice tone="success">
      <p>{children}</p>
      <p className="id-row">
        <code data-testid="webhook-secret">{secret}</code>
        <CopyButton text={secret} label="Copy secret" />
      </p>
      <p>
        <strong>Copy it now: it is not shown again.</strong> The receiver verifies each request's <code>webhook-signature</code> with it.
      </p>
    </Notice>
  );
}
