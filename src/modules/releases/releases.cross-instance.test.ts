// Two instances on one database: a file uploaded through one is served by the other (its
// chunks are in the database), and a release change made on one is in force for the other's
// validations within its version poll.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createProduct, newLicense, validate } from '../../../test/helpers/fixtures.js';
import { downloadRelease, newRelease } from '../../../test/helpers/releases.js';
import { DIALECTS, type TestApp } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';
import { until } from '../../../test/helpers/until.js';

describe.each(DIALECTS)('releases on two instances (%s)', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances(dialect, { VALIDATION_RATE_LIMIT: '10000' }, (apps) => ({ a, b } = apps));

  it('serves on one instance the file uploaded through the other', async () => {
    const product = await createProduct(a);
    const license = await newLicense(a, { productId: product.id });
    const bytes = randomBytes(2_500_000);
    await newRelease(a, product.id, { version: '1.0.0', bytes });
    const res = await downloadRelease(b, { licenseId: license.id, productId: product.id, hwid: 'HW' });
    expect(res.status).toBe(200);
    expect(res.bytes.equals(bytes)).toBe(true);
    expect(res.headers['x-release-sha256']).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await a.admin('GET', `/releases/${(await a.admin('GET', `/products/${product.id}/releases`)).json[0].id}/downloads`)).json).toHaveLength(1);
  });

  it("refuses on one instance a version archived through the other, once the other's change shows", async () => {
    const product = await createProduct(a, { refuseUnsupportedVersions: true, revealReasons: true });
    const license = await newLicense(a, { productId: product.id });
    const release = await newRelease(a, product.id, { version: '1.0.0' });
    const onB = () => validate(b, { licenseId: license.id, productId: product.id, hwid: 'HW', version: '1.0.0' });
    await until('B knows the published version', onB, (res) => res.json.valid === true);
    expect((await a.admin('POST', `/releases/${release.id}/archive`)).status).toBe(200);
    const refused = await until('B refuses the archived version', onB, (res) => res.json.valid === false);
    expect(refused.json).toEqual({ valid: false, reason: 'VERSION_NOT_SUPPORTED' });
  });
});
