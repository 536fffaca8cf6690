// The two settings of "bindings that heal" (DECISIONS.md), shared by products (the
// default for new licenses) and licenses. null keeps SPEC.md's behaviour exactly.
import { NullableInteger } from '../../http/schemas.js';
import { DAY_MS } from '../../lib/time.js';

/** Largest value a PostgreSQL `integer` column holds. */
const MAX_INT = 2_147_483_647;

export const SlotTimeoutMinutes = (scope: string) =>
  NullableInteger({
    minimum: 1,
    maximum: MAX_INT,
    description:
      `${scope}Minutes after which an IP or HWID binding that no successful validation has presented may be released ` +
      'to make room for a new one (least recently seen first, only when a validation needs the slot). ' +
      'null: bindings are permanent.',
    examples: [10080],
  });

export const SelfReleaseLimit = (scope: string) =>
  NullableInteger({
    minimum: 1,
    maximum: MAX_INT,
    description:
      `${scope}How many self-service releases (POST /licenses/release that freed something) the license may make in any ` +
      '30 days. null: self-service release is off.',
    examples: [3],
  });

/** Self-service releases count over this rolling window. */
export const SELF_RELEASE_WINDOW_MS = 30 * DAY_MS;
