#!/usr/bin/env node
// The command line shared with the Java client (DECISIONS.md "Client libraries").
import { readFileSync } from 'node:fs';
import { LicenseClient } from './client.js';
import type { JwkSet } from './jws.js';
import { verifyLicenseFile } from './license-file.js';
import { machineId } from './machine-id.js';
import { describeRelease, releaseMachine } from './release.js';
import type { ValidationResult } from './client.js';
import type { FeatureValue, LicenseTerms } from './terms.js';
import { describeCheck, describeDownload, type ReleaseChannel } from './update.js';

const USAGE = `usage:
  license-client validate --url URL --license KEY --product ID --hwid HWID --keys JWKS_FILE --cache FILE [--grace-hours H]
  license-client verify-file --keys JWKS_FILE --license-file FILE --product ID [--hwid HWID]
  license-client release --url URL --license KEY --product ID --hwid HWID
  license-client machine-id --file FILE
  license-client update check --url URL --license KEY --product ID --hwid HWID --keys JWKS_FILE [--version V] [--channel C]
  license-client update download --url URL --license KEY --product ID --hwid HWID --keys JWKS_FILE --to FILE [--channel C]
  license-client --help

validate and verify-file: a valid answer prints VALID, VALID GRACE <grace end> or VALID_OFFLINE,
then "expires <ISO-8601>" ("expires never"; "expires unknown" from an older service) and
"features {...}" (JSON): exit 0. A refusal prints INVALID <why> (e.g. INVALID REJECTED,
INVALID BLOCKED): exit 1. Usage errors exit 2.
update check: UPDATE <version> <sha256> (a newer release than --version), UP_TO_DATE <version>
or UP_TO_DATE (none this license may have): exit 0. update download: the newest release the
license may have, checked against the signed answer, written to FILE: DOWNLOADED <version> <path>,
exit 0. A refusal prints INVALID <why> (e.g. INVALID REJECTED, INVALID UNVERIFIED): exit 1.`;

class UsageError extends Error {}

/** `--help` (or `-h`) where a command or an option is expected: print the usage, exit 0. */
const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';
class HelpRequested extends Error {}

function parseArgs(args: string[], required: string[], optional: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    if (isHelp(args[i])) throw new HelpRequested();
    const name = args[i]!.replace(/^--/, '');
    if (!args[i]!.startsWith('--') || ![...required, ...optional].includes(name)) throw new UsageError(`unknown argument ${args[i]}`);
    if (args[i + 1] === undefined) throw new UsageError(`${args[i]} needs a value`);
    out[name] = args[i + 1]!;
  }
  for (const name of required) if (out[name] === undefined) throw new UsageError(`--${name} is required`);
  return out;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
}

function readKeys(path: string): JwkSet {
  try {
    return JSON.parse(readText(path, 'keys file')) as JwkSet;
  } catch (err) {
    throw err instanceof UsageError ? err : new UsageError(`keys file ${path} is not JSON`);
  }
}

/** VALID, VALID GRACE <grace end>, VALID_OFFLINE, INVALID <why>, INVALID REJECTED <the service's reason where revealed>. */
function validationLine(result: ValidationResult): string {
  if (result.status === 'INVALID') return result.serverReason === undefined ? `INVALID ${result.reason}` : `INVALID REJECTED ${result.serverReason}`;
  const grace = result.terms.graceEndsAtEpochMillis;
  return result.status === 'VALID' && grace !== null ? `VALID GRACE ${new Date(grace).toISOString()}` : result.status;
}

/**
 * The lines after a valid answer's: its expiry and its features, from the signed payload.
 * "expires unknown": a receipt from a service that signs no expiry (null there means never).
 */
function termsLines(payload: object, terms: LicenseTerms): string[] {
  const told = Object.hasOwn(payload, 'expiresAtEpochMillis');
  const expiry = terms.expiresAtEpochMillis;
  return [`expires ${expiry !== null ? new Date(expiry).toISOString() : told ? 'never' : 'unknown'}`, `features ${featuresJson(terms.features)}`];
}

/**
 * Features as one line of JSON, keys sorted, everything outside printable ASCII escaped (a
 * feature's string value cannot move the cursor or add a line); the Java CLI prints the same.
 */
function featuresJson(features: Readonly<Record<string, FeatureValue>>): string {
  const quote = (text: string) =>
    `"${text.replace(/["\\]|[^\x20-\x7e]/g, (c) => (c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;
  const value = (v: FeatureValue) => (typeof v === 'string' ? quote(v) : String(v));
  return `{${Object.keys(features).sort().map((code) => `${quote(code)}:${value(features[code]!)}`).join(',')}}`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (isHelp(command) || command === 'help') throw new HelpRequested();
  if (command === 'validate') {
    const a = parseArgs(rest, ['url', 'license', 'product', 'hwid', 'keys', 'cache'], ['grace-hours']);
    const graceHours = a['grace-hours'] === undefined ? 72 : Number(a['grace-hours']);
    if (!Number.isFinite(graceHours) || graceHours < 0) throw new UsageError('--grace-hours must be a number >= 0');
    let client: LicenseClient;
    try {
      client = new LicenseClient({ url: a.url!, jwks: readKeys(a.keys!), cacheFile: a.cache!, graceHours });
      new URL(a.url!);
    } catch (err) {
      throw err instanceof UsageError ? err : new UsageError((err as Error).message);
    }
    const result = await client.validate({ licenseId: a.license!, productId: a.product!, hwid: a.hwid! });
    console.log(validationLine(result));
    if (result.status !== 'INVALID') console.log(termsLines(result.receipt, result.terms).join('\n'));
    return result.status === 'INVALID' ? 1 : 0;
  }
  if (command === 'verify-file') {
    const a = parseArgs(rest, ['keys', 'license-file', 'product'], ['hwid']);
    let result;
    try {
      const jwks = readKeys(a.keys!);
      const content = readText(a['license-file']!, 'license file');
      result = verifyLicenseFile(content, { jwks, productId: a.product!, ...(a.hwid === undefined ? {} : { hwid: a.hwid }) });
    } catch (err) {
      throw err instanceof UsageError ? err : new UsageError((err as Error).message);
    }
    const grace = result.valid ? result.inGraceUntilEpochMillis : null;
    console.log(result.valid ? (grace === null ? 'VALID' : `VALID GRACE ${new Date(grace).toISOString()}`) : `INVALID ${result.reason}`);
    if (result.valid) console.log(termsLines(result.license, result.terms).join('\n'));
    return result.valid ? 0 : 1;
  }
  if (command === 'release') {
    const a = parseArgs(rest, ['url', 'license', 'product', 'hwid'], []);
    try {
      new URL(a.url!);
    } catch {
      throw new UsageError(`--url ${a.url} is not a URL`);
    }
    const result = await releaseMachine(a.url!, { licenseId: a.license!, productId: a.product!, hwid: a.hwid! });
    console.log(describeRelease(result));
    return result.status === 'INVALID' ? 1 : 0;
  }
  if (command === 'update') {
    const [action, ...options] = rest;
    if (isHelp(action)) throw new HelpRequested();
    if (action !== 'check' && action !== 'download') throw new UsageError(action === undefined ? 'update needs check or download' : `unknown update command ${action}`);
    const common = ['url', 'license', 'product', 'hwid', 'keys'];
    const a = action === 'check' ? parseArgs(options, common, ['version', 'channel']) : parseArgs(options, [...common, 'to'], ['channel']);
    if (a.channel !== undefined && !['stable', 'beta', 'alpha'].includes(a.channel)) throw new UsageError('--channel must be stable, beta or alpha');
    let client: LicenseClient;
    try {
      new URL(a.url!);
      client = new LicenseClient({ url: a.url!, jwks: readKeys(a.keys!) });
    } catch (err) {
      throw err instanceof UsageError ? err : new UsageError((err as Error).message);
    }
    const check = await client.checkForUpdate({
      licenseId: a.license!,
      productId: a.product!,
      hwid: a.hwid!,
      ...(a.version === undefined ? {} : { version: a.version }),
      ...(a.channel === undefined ? {} : { channel: a.channel as ReleaseChannel }),
    });
    if (action === 'check') {
      console.log(describeCheck(check));
      return check.valid ? 0 : 1;
    }
    let downloaded;
    try {
      downloaded = await client.downloadUpdate(a.to!);
    } catch (err) {
      console.error(`cannot write ${a.to}: ${(err as Error).message}`);
      return 1;
    }
    console.log(describeDownload(downloaded));
    return downloaded.status === 'DOWNLOADED' ? 0 : 1;
  }
  if (command === 'machine-id') {
    const a = parseArgs(rest, ['file'], []);
    console.log(await machineId(a.file!));
    return 0;
  }
  throw new UsageError(command === undefined ? 'no command given' : `unknown command ${command}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof HelpRequested) {
      console.log(USAGE);
      process.exit(0);
    }
    if (err instanceof UsageError) {
      console.error(`${err.message}\n${USAGE}`);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);
