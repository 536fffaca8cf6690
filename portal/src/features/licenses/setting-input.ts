// A number input of a setting a license takes from its product, bounded as the server declares it.
import { LICENSE_SETTINGS } from '../../lib/from-server';

type Settings = typeof LICENSE_SETTINGS;
type Bounded = { [K in keyof Settings]: Settings[K] extends { minimum: number; maximum: number } ? K : never }[keyof Settings];

export const settingInput = (setting: Bounded) =>
  ({ type: 'number', min: LICENSE_SETTINGS[setting].minimum, max: LICENSE_SETTINGS[setting].maximum, step: 1 }) as const;
