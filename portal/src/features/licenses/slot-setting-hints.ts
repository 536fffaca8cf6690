// What the two "bindings that heal" settings do, said the same way on every form.
import { SELF_RELEASE_WINDOW_DAYS } from '../../lib/from-server';

export const SELF_RELEASE_LABEL = `Self-service releases per ${SELF_RELEASE_WINDOW_DAYS} days`;
export const SLOT_TIMEOUT_HINT =
  'Minutes. A full license frees a binding no successful validation has shown for this long when a new machine needs the slot (1440 = a day). Empty = bindings are permanent.';
export const SELF_RELEASE_HINT =
  `How often in ${SELF_RELEASE_WINDOW_DAYS} days the buyer may free a machine with the key alone (POST /licenses/release). Empty = self-service release off.`;
