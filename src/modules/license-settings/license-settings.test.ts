// The declaration of the settings a license takes from its product (license-settings.bounds.ts)
// is what the API document, the portal and license creation all follow.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createProduct, validate } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { COPIED_SETTINGS, EXPIRY_BASES, LICENSE_SETTINGS, type LicenseSetting } from './license-settings.bounds.js';

type JsonSchema = Record<string, any>;

/** The schema keywords a setting's declared bounds become. */
function declaredKeywords(setting: LicenseSetting): JsonSchema {
  const declared = LICENSE_SETTINGS[setting] as Record<string, any>;
  switch (setting) {
    case 'expiryBasis':
      return { enum: [...EXPIRY_BASES] };
    case 'features':
      return {
        maxProperties: declared.maxKeys,
        propertyNames: { pattern: declared.keyPattern },
        additionalProperties: expect.objectContaining({ maxLength: declared.maxStringLength }),
      };
    case 'revealReasons':
      return {};
    case 'sharingAlert':
      return {
        properties: {
          distinctIps: expect.objectContaining(declared.distinct),
          distinctHwids: expect.objectContaining(declared.distinct),
          windowHours: expect.objectContaining(declared.windowHours),
        },
      };
    default:
      return { minimum: declared.minimum, maximum: declared.maximum };
  }
}

/** Every declared bound written as a number (the feature key pattern's length included). */
function declaredNumbers(): number[] {
  const numbers = new Set<number>();
  const walk = (value: unknown): void => {
    if (typeof value === 'number') numbers.add(value);
    else if (typeof value === 'string') for (const n of value.match(/\d+/g) ?? []) numbers.add(Number(n));
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(LICENSE_SETTINGS);
  return [...numbers].filter((n) => n >= 10); // 0 and 1 are everywhere
}

const portalSources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? portalSources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );

describe('the portal and the server agree on the settings', () => {
  it('the portal takes the declaration from the server: no form writes a declared bound or the clock rule itself', async () => {
    const root = join(import.meta.dirname, '../../../portal/src');
    const portal = await import(join(root, 'lib/from-server.ts'));
    expect(portal.LICENSE_SETTINGS).toEqual(LICENSE_SETTINGS);
    const numbers = declaredNumbers();
    expect(numbers).toEqual(expect.arrayContaining([36500, 365, 64, 256, 168, 1_000_000]));
    const copies: string[] = [];
    for (const file of portalSources(root)) {
      const name = relative(root, file);
      // The generated API types repeat the document; tests may name the numbers they check.
      if (name === 'types/api.ts' || name.includes('.test.')) continue;
      const code = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '');
      for (const n of numbers) {
        const written = new RegExp(`(?<![\\w.-])(${n}|${n.toLocaleString('en').replaceAll(',', '_')})(?![\\w.])`);
        if (written.test(code)) copies.push(`${name}: ${n}`);
      }
      if (/=== 'creation'/.test(code)) copies.push(`${name}: the clock rule`);
    }
    expect(copies).toEqual([]);
  });
});

describe.each(DIALECTS)('license settings (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it("the API document's bounds of every setting, on product and license bodies, are the declaration's", async () => {
    const schemas = (t.app.swagger() as { components: { schemas: Record<string, JsonSchema> } }).components.schemas;
    for (const body of ['ProductBody', 'ProductPatch', 'CreateLicenseBody', 'UpdateLicenseBody', 'PatchLicenseBody']) {
      for (const setting of Object.keys(LICENSE_SETTINGS) as LicenseSetting[]) {
        expect(schemas[body]!.properties[setting], `${body}.${setting}`).toMatchObject(declaredKeywords(setting));
      }
    }
  });

  /** A value of every setting that no default has, and a second one. */
  const settings = (n: 1 | 2): Record<LicenseSetting, unknown> => ({
    maxIps: 3 + n,
    maxHwids: 5 + n,
    slotTimeoutMinutes: 60 * n,
    selfReleaseLimit: 2 + n,
    expiryBasis: n === 1 ? 'firstValidation' : 'creation',
    validForDays: 14 * n,
    graceDays: 2 + n,
    features: { tier: `tier-${n}`, seats: 10 * n },
    revealReasons: n === 1,
    sharingAlert: { distinctIps: 4 + n, windowHours: 24 * n },
  });

  it('creation copies every copied setting from the product; the live ones stay unset on the license and are read from the product at use', async () => {
    const product = await createProduct(t, settings(1));
    const customer = await createCustomer(t);
    const created = await t.admin('POST', '/licenses', { body: { productId: product.id, customerId: customer.id } });
    expect(created.status).toBe(201);
    const license = created.json;
    for (const setting of COPIED_SETTINGS) expect(license[setting], setting).toEqual(settings(1)[setting]);
    expect(COPIED_SETTINGS).toEqual(['maxIps', 'maxHwids', 'slotTimeoutMinutes', 'selfReleaseLimit', 'expiryBasis', 'validForDays', 'graceDays']);
    expect({ features: license.features, revealReasons: license.revealReasons, sharingAlert: license.sharingAlert }).toEqual({
      features: {},
      revealReasons: null,
      sharingAlert: null,
    });

    const live = async () => {
      const read = await t.admin('GET', `/licenses/${license.id}`);
      const sharing = await t.admin('GET', `/licenses/${license.id}/sharing`);
      const answer = await validate(t, { licenseId: license.id, productId: product.id, hwid: 'machine-1' });
      return { read: read.json, alert: sharing.json.alert, alertSource: sharing.json.alertSource, reason: answer.json.reason };
    };
    const before = await live();
    expect(before.read.effectiveFeatures).toEqual(settings(1).features);
    expect(before.alert).toEqual(settings(1).sharingAlert);
    expect(before.alertSource).toBe('product');
    expect(before.reason).toBe('VALID');

    // A changed product: the copied settings stay as they were, the live ones follow.
    expect((await t.admin('PATCH', `/products/${product.id}`, { body: settings(2) })).status).toBe(200);
    const after = await live();
    for (const setting of COPIED_SETTINGS) expect(after.read[setting], setting).toEqual(license[setting]);
    expect(after.read.effectiveFeatures).toEqual(settings(2).features);
    expect(after.alert).toEqual(settings(2).sharingAlert);
    expect(after.reason).toBeUndefined(); // the product's revealReasons is now false
  });
});
