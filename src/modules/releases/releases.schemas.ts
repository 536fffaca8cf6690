// The API schemas of releases: the record, its staff bodies and lists, the public download
// and update-check bodies, the download records and the trace answer.
import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger, NullableString, PageQueryProperties } from '../../http/schemas.js';
import { RELEASE_NOTES_MAX_LENGTH as NOTES_MAX_LENGTH } from '../../lib/release-version.js';
import { VersionSchema } from '../licenses/licenses.schemas.js';

export const CHANNELS = ['stable', 'beta', 'alpha'] as const;
export type Channel = (typeof CHANNELS)[number];
export const STATUSES = ['draft', 'published', 'deprecated', 'archived'] as const;
export type ReleaseStatus = (typeof STATUSES)[number];

const ChannelSchema = (description: string) => Type.Unsafe<Channel>({ type: 'string', enum: [...CHANNELS], description, examples: ['stable'] });
const StatusSchema = (description: string) => Type.Unsafe<ReleaseStatus>({ type: 'string', enum: [...STATUSES], description });
const Sha256 = (description: string) => Type.String({ pattern: '^[0-9a-f]{64}$', description });

export const ReleaseFileSchema = Type.Object(
  {
    name: Type.String({ description: 'The file name given at upload (X-File-Name)' }),
    size: Type.Integer({ description: 'Bytes' }),
    sha256: Sha256('SHA-256 of the file as uploaded, lowercase hex'),
    mainClass: NullableString({ description: '`main` of the jar\'s plugin.yml, paper-plugin.yml or bungee.yml; null for other files or none' }),
  },
  { description: 'The file of a release' },
);

export const ReleaseSchema = Type.Object({
  id: Type.String({ description: 'Release id (UUIDv7)' }),
  productId: Type.String({ description: 'The product it is a release of' }),
  version: Type.String({ description: 'Unique per product and channel' }),
  channel: ChannelSchema('stable, beta or alpha'),
  status: StatusSchema('draft (invisible to licenses), published, deprecated (still delivered, marked in receipts) or archived (refused where the product refuses unsupported versions; never delivered)'),
  notes: NullableString({ description: 'Release notes (null: none)' }),
  createdAtEpochMillis: Type.Integer(),
  publishedAtEpochMillis: NullableInteger({ description: 'When it was first published (null: never)' }),
  file: Type.Union([ReleaseFileSchema, Type.Null()], { description: 'null until a file is uploaded' }),
});
export type Release = Static<typeof ReleaseSchema>;

const Notes = NullableString({ maxLength: NOTES_MAX_LENGTH, description: `Up to ${NOTES_MAX_LENGTH.toLocaleString('en')} characters`, examples: ['Fixes the login bug'] });

export const CreateReleaseBodySchema = Type.Object(
  {
    version: VersionSchema('1-64 of `0-9 A-Z a-z . + _ -`, starting alphanumeric; unique per product and channel (409)'),
    channel: Type.Optional(ChannelSchema('Omitted: stable')),
    notes: Type.Optional(Notes),
  },
  { description: 'A new release, a draft without a file: upload its file with PUT /releases/{id}/file, then publish it' },
);
export type CreateReleaseBody = Static<typeof CreateReleaseBodySchema>;

export const PatchReleaseBodySchema = Type.Object(
  {
    channel: Type.Optional(ChannelSchema('A draft\'s only (409 otherwise)')),
    notes: Type.Optional(Notes),
  },
  {
    description: 'Fields given are set, others kept; at least one. The version is fixed at creation (a draft with a wrong one is deleted and made again).',
    minProperties: 1,
    examples: [{ notes: 'Now with more speed' }],
  },
);
export type PatchReleaseBody = Static<typeof PatchReleaseBodySchema>;

export const ReleaseQuerySchema = Type.Object({
  ...PageQueryProperties,
  channel: Type.Optional(ChannelSchema('Only this channel')),
  status: Type.Optional(StatusSchema('Only releases in this status')),
});
export type ReleaseQuery = Static<typeof ReleaseQuerySchema>;

const LicenseRequest = {
  licenseId: Type.String({ description: 'The license key', examples: ['7K3QD-9XW2M-PA4ZR-0HT6B-N5YCE'] }),
  productId: Type.String({ description: 'Product the plugin belongs to' }),
  hwid: Type.Optional(
    Type.String({ maxLength: 1024, description: 'Hardware id, as in validation (omitted: the empty hardware id, which counts against maxHwids like any other)', examples: ['machine-42'] }),
  ),
  channel: Type.Optional(ChannelSchema('Omitted: stable')),
};

export const DownloadBodySchema = Type.Object({
  ...LicenseRequest,
  version: Type.Optional(VersionSchema('The version to download (omitted: the newest the license may have in the channel)')),
});
export type DownloadBody = Static<typeof DownloadBodySchema>;

export const LatestBodySchema = Type.Object({
  ...LicenseRequest,
  version: Type.Optional(VersionSchema('The version the plugin runs (its status is answered as `current`)')),
  nonce: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{16,128}$',
      description: 'Fresh random value per request: the answer then carries a `Validation-Receipt` header, a JWS (typ release-check) repeating it',
      examples: ['q0Zk8mX3vT1pR7sYc2Wn5uHa9JbLd4Ee'],
    }),
  ),
});
export type LatestBody = Static<typeof LatestBodySchema>;

export const LatestReleaseSchema = Type.Object({
  version: Type.String(),
  sha256: Sha256('SHA-256 of the release\'s file (a stamped jar differs: its download says X-Release-Sha256)'),
  size: Type.Integer(),
  publishedAtEpochMillis: Type.Integer(),
});
export type LatestRelease = Static<typeof LatestReleaseSchema>;

export const LatestResultSchema = Type.Object({
  valid: Type.Boolean({ description: 'Whether the license would validate from this machine (nothing is bound or recorded)' }),
  latest: Type.Union([LatestReleaseSchema, Type.Null()], { description: 'The newest release the license may have in the channel; null when invalid or none' }),
  current: Type.Union([Type.Object({ status: StatusSchema('The named version\'s status') }), Type.Null()], {
    description: 'The named version\'s status; null when no version was named, it is unknown (or a draft), or the license is invalid',
  }),
  update: Type.Boolean({ description: '`latest` exists and is not the named version' }),
});
export type LatestResult = Static<typeof LatestResultSchema>;

/** The reasons a refused download may reveal: validation's, and RELEASE_NOT_ALLOWED. */
export const RELEASE_NOT_ALLOWED = 'RELEASE_NOT_ALLOWED';
export const RefusedDownloadSchema = Type.Object(
  {
    valid: Type.Literal(false),
    reason: Type.Optional(Type.String({ description: 'Where the license reveals reasons: validation\'s reason, or RELEASE_NOT_ALLOWED (the license validates but may not have this release)' })),
  },
  { description: 'The validation body: the license is refused, or may not have the release' },
);

export const DownloadRecordSchema = Type.Object({
  id: Type.String({ description: 'Download id (stamped into a jar as %%__LICENSING_DOWNLOAD__%%)' }),
  licenseId: Type.String(),
  ip: Type.String(),
  hwid: NullableString({ description: 'null: none given' }),
  atEpochMillis: Type.Integer(),
  sha256: Sha256('SHA-256 of the bytes sent (of the stamped jar, for a jar)'),
});
export type DownloadRecord = Static<typeof DownloadRecordSchema>;

export const DownloadQuerySchema = Type.Object({ ...PageQueryProperties });
export type DownloadQuery = Static<typeof DownloadQuerySchema>;

export const TraceResultSchema = Type.Object({
  foundBy: Type.Unsafe<'entry' | 'constant'>({
    type: 'string',
    enum: ['entry', 'constant'],
    description: 'entry: the signed META-INF/LICENSING-DOWNLOAD.jws; constant: a stamped value (the entry was stripped)',
  }),
  download: DownloadRecordSchema,
  customerId: NullableString({ description: 'The customer of the license at the download' }),
  release: Type.Object({ id: Type.String(), productId: Type.String(), version: Type.String(), channel: Type.String() }),
});
export type TraceResult = Static<typeof TraceResultSchema>;
