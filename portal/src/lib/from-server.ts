// What the portal takes from the server's code instead of copying it: the declaration of the
// settings a license takes from its product (which are copied, which live, their bounds, the
// clock rule), the units of time and a release version's shape. These files have no imports,
// so nothing of Node comes along.
export * from '../../../src/modules/license-settings/license-settings.bounds';
export { DAY_MS } from '../../../src/lib/time';
export * from '../../../src/lib/release-version';
