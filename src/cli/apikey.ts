/**
 * Makes, lists, rolls, rescopes and revokes API keys, against whichever database DATABASE_URL names — with or
 * without the service running. `npm run apikey -- --help` says how; `npm run apikey` runs the built
 * tool without rebuilding (it builds only when dist/ is missing), as the image does.
 * Exit codes: 0 done, 1 failed (database, no such key), 2 used wrongly (an unknown scope, an ambiguous prefix).
 */
// First: refuses an unsupported Node before anything else loads.
import '../supported-node.js';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { ApiKey } from '../auth/api-key.entity.js';
import {
  ApiKeyIssuer,
  InvalidApiKeyNameError,
  type KeyExpiry,
  KeyNotRollableError,
  KeyTimeRefusedError,
  type NewKeyOptions,
} from '../auth/api-key-issuer.js';
import { ApiKeysRepository } from '../auth/api-keys.repository.js';
import { type AppConfig, loadAppConfig } from '../config/app-config.js';
import { Sql } from '../database/sql.js';
import { isScope, readScopes, SANDBOX_KEY_SCOPES, type Scope, SCOPES } from '../auth/scopes.js';
import { Environment } from '../environments/environment.js';
import { SandboxesRepository } from '../sandboxes/sandboxes.repository.js';
import { parseDateTime } from '../validation/date-time.js';
import { announceKeyChanges } from './key-changes.js';
import { CliError, openDatabase, reportFailure } from './operator-tool.js';
import { formatDate, formatTable } from './table.js';

const USAGE =
  'usage: npm run apikey -- create NAME [--scopes LIST] [--expires-in DURATION | --expires-at TIME] [--sandbox SANDBOX_ID] | list | ' +
  'roll ID|PREFIX [--overlap DURATION] | scopes ID|PREFIX --scopes LIST | revoke ID|PREFIX | --help';

/** What each scope lets a key do, for the help; typed by Scope, so a scope added to SCOPES must be described here. */
const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'pets:read': 'list and get animals',
  'pets:write': 'add animals (and change and remove them, with the read scope too)',
  'store:read': 'list and get orders, the inventory',
  'store:write': 'place orders (and move and cancel them, with the read scope too)',
  'webhooks:read': 'list and get webhook endpoints and events',
  'webhooks:write': 'add webhook endpoints (and change, test and remove them, send events again, with the read scope too)',
  'requests:read': "list and get the key's own requests (the request log)",
  'sandboxes:read': 'list and get sandboxes (a live key only)',
  'sandboxes:write': 'make and delete sandboxes (a live key only)',
};

/** `text` in lines of at most `width` characters, each after `indent` but the first. */
function wrap(text: string, indent: number, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join(`\n${' '.repeat(indent)}`);
}

const SCOPES_OPTION_HELP = wrap(
  `What the key may do, comma-separated: ${SCOPES.map((scope) => `${scope} (${SCOPE_DESCRIPTIONS[scope]})`).join(', ')}. ` +
    'A write scope does not include its read scope. Without --scopes the key holds them all.',
  21,
);

const HELP = `${USAGE}

Makes, lists, rolls, rescopes and revokes the API keys of the Pet Store service, in the database
DATABASE_URL names (the SQLite file data/petstore.sqlite when it is unset), while the service runs or not.

  create NAME        Makes a key and prints it on stdout, the only time it is ever shown. NAME is a
                     label of 1 to 100 characters (quote one with spaces); a name other active keys
                     have is accepted with a warning.
    --scopes LIST    ${SCOPES_OPTION_HELP}
    --expires-in D   The key stops working D after it is stored, by the database's clock: 45s,
                     30m, 24h or 90d (more than zero).
    --expires-at T   The key stops working at T, an RFC 3339 time in the future
                     (2027-03-31T23:59:59Z). Without either, it never expires. No key
                     expires after 9999-12-31T23:59:59.999Z, the latest time the database holds.
    --sandbox ID     A key of the sandbox ID (sbx_…, as \`npm run sandboxes -- list\` shows it), in use:
                     it begins psk_test_, acts in that sandbox alone, holds every scope but
                     sandboxes:read and sandboxes:write unless --scopes says otherwise, and stops
                     when the sandbox expires (or sooner, by --expires-in or --expires-at).
  list               Every key: id, name, prefix, scopes, created, expires, last used, revoked, and
                     the key it was rolled from or to; never a key.
  roll ID|PREFIX     Makes the key's successor (same name and scopes, printed once) and lets the old
                     key work until the overlap ends, then expire: deploy the new key meanwhile.
    --overlap D      How long both work: a duration as above, or 0 for no overlap (the old key
                     stops at once); 24h when not given.
    --expires-in D, --expires-at T   The successor's expiry, as for create; none when not given.
  scopes ID|PREFIX   Gives the key exactly the scopes of --scopes LIST.
  revoke ID|PREFIX   Revokes the key at once. Revoking twice is harmless.
  help, --help, -h   This text.

ID|PREFIX is the key's id, or the start of its prefix as list shows it (psk_…); a PREFIX more than
one key has is refused. Every instance applies a roll, new scopes or a revocation within 1 s (at
once with REDIS_URL set).

From a built checkout: node dist/src/cli/apikey.js COMMAND; in the image:
docker compose run --rm api node dist/src/cli/apikey.js COMMAND.
Exit codes: 0 done, 1 failed (database, no such key, a key that cannot be rolled), 2 used wrongly
(an unknown option or scope, a duration of zero, a time in the past or past 9999, an ambiguous
prefix); a command that exits with 2 has changed nothing.
`;

/** Which key a command names: its id, or the start of the prefix `list` shows (the "…" it ends with may be pasted along). */
type KeyReference = { id: number } | { prefix: string };

/** An expiry as given: what it means, and the option as typed, for a message that refuses it. */
interface GivenExpiry {
  readonly expiry: KeyExpiry | null;
  readonly option: string;
}

type Command =
  | { run: 'help' }
  | { run: 'create'; name: string; scopes?: readonly Scope[]; expiry: GivenExpiry; sandbox?: string }
  | { run: 'list' }
  | { run: 'roll'; key: KeyReference; overlapMs: number; overlap: string; expiry: GivenExpiry }
  | { run: 'scopes'; key: KeyReference; scopes: readonly Scope[] }
  | { run: 'revoke'; key: KeyReference };

const DEFAULT_OVERLAP = '24h';
const EXPIRY_OPTIONS = { 'expires-in': { type: 'string' }, 'expires-at': { type: 'string' } } as const;

function parseArguments(args: readonly string[]): Command {
  const [command, ...rest] = args;
  if (['help', '--help', '-h'].includes(command) && rest.length === 0) return { run: 'help' };
  switch (command) {
    case 'create': {
      const { positionals, values } = parseOptions(rest, { scopes: { type: 'string' }, sandbox: { type: 'string' }, ...EXPIRY_OPTIONS });
      if (positionals.length !== 1) throw new CliError('create needs exactly one NAME (quote a name with spaces)', 2);
      const scopes = values.scopes === undefined ? undefined : parseScopeList(values.scopes);
      if (values.sandbox !== undefined && !/^sbx_[A-Za-z0-9_-]{1,36}$/.test(values.sandbox))
        throw new CliError(
          `--sandbox must be a sandbox's id, sbx_… as \`npm run sandboxes -- list\` shows it (got "${values.sandbox}")`,
          2,
        );
      return { run: 'create', name: positionals[0], scopes, expiry: parseExpiry(values), sandbox: values.sandbox };
    }
    case 'list':
      if (rest.length === 0) return { run: 'list' };
      break;
    case 'roll': {
      const { positionals, values } = parseOptions(rest, { overlap: { type: 'string' }, ...EXPIRY_OPTIONS });
      if (positionals.length !== 1) throw new CliError('roll needs exactly one ID or PREFIX', 2);
      const overlap = values.overlap ?? DEFAULT_OVERLAP;
      // 0: no overlap, the old key stops at once (a leaked key's roll).
      const overlapMs = parseDuration('--overlap', overlap, { orNone: true });
      return { run: 'roll', key: parseKeyReference('roll', positionals[0]), overlapMs, overlap, expiry: parseExpiry(values) };
    }
    case 'scopes': {
      const { positionals, values } = parseOptions(rest, { scopes: { type: 'string' } });
      if (positionals.length !== 1 || values.scopes === undefined)
        throw new CliError('scopes needs exactly one ID or PREFIX and --scopes LIST', 2);
      return { run: 'scopes', key: parseKeyReference('scopes', positionals[0]), scopes: parseScopeList(values.scopes) };
    }
    case 'revoke':
      if (rest.length === 1) return { run: 'revoke', key: parseKeyReference('revoke', rest[0]) };
      throw new CliError('revoke needs exactly one ID or PREFIX', 2);
  }
  throw new CliError(USAGE, 2);
}

/** node:util's parseArgs, its complaints (an unknown option, a missing value) as usage errors. */
function parseOptions<T extends ParseArgsOptionsConfig>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    // One line, as every usage error: node:util's own messages may run to three (a value that starts with a dash).
    const [first, ...hints] = (error instanceof Error ? error.message : String(error)).split('\n');
    const dashed = hints.find((hint) => hint.includes('starting with a dash'));
    throw new CliError(dashed ? `${first} ${dashed}` : first, 2);
  }
}

function parseScopeList(given: string): Scope[] {
  const scopes = given.split(',').map((scope) => scope.trim());
  const unknown = scopes.find((scope) => !isScope(scope));
  if (unknown !== undefined) {
    throw new CliError(`--scopes: "${unknown}" is no scope; the scopes are ${SCOPES.join(', ')} (comma-separated)`, 2);
  }
  return scopes as Scope[];
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `45s`, `30m`, `24h`, `90d`: a whole number, more than zero, and a unit; `orNone`, also `0` (or `0s`, …). */
function parseDuration(option: string, given: string, { orNone = false } = {}): number {
  if (orNone && /^0[smhd]?$/.test(given)) return 0;
  const match = /^([1-9][0-9]{0,8})([smhd])$/.exec(given);
  if (!match) {
    const wanted = `${orNone ? '0 or ' : ''}a duration of more than zero, like 45s, 30m, 24h or 90d`;
    throw new CliError(`${option} must be ${wanted} (got "${given}")`, 2);
  }
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/**
 * The expiry --expires-in or --expires-at gives, null for neither; both at once are refused. Whether
 * it is in the future and storable is for the database's clock to say, as the key is stored.
 */
function parseExpiry(values: { 'expires-in'?: string; 'expires-at'?: string }): GivenExpiry {
  const { 'expires-in': expiresIn, 'expires-at': expiresAt } = values;
  if (expiresIn !== undefined && expiresAt !== undefined) throw new CliError('give --expires-in or --expires-at, not both', 2);
  if (expiresIn !== undefined)
    return { expiry: { afterMs: parseDuration('--expires-in', expiresIn) }, option: `--expires-in ${expiresIn}` };
  if (expiresAt === undefined) return { expiry: null, option: '' };
  const at = parseDateTime(expiresAt);
  if (!at) throw new CliError(`--expires-at must be an RFC 3339 time like 2027-03-31T23:59:59Z (got "${expiresAt}")`, 2);
  return { expiry: { at }, option: `--expires-at ${expiresAt}` };
}

function parseKeyReference(command: string, given: string): KeyReference {
  if (/^[1-9][0-9]{0,15}$/.test(given) && Number.isSafeInteger(Number(given))) return { id: Number(given) };
  const prefix = given.replace(/…$/, '');
  if (/^psk_[A-Za-z0-9_-]+$/.test(prefix)) return { prefix };
  throw new CliError(`${command} needs the numeric ID or the psk_… PREFIX that list shows (got "${given}")`, 2);
}

interface Opened {
  readonly issuer: ApiKeyIssuer;
  readonly sandboxes: SandboxesRepository;
  readonly keys: ApiKeysRepository;
  close(): Promise<void>;
}

async function openIssuer(config: AppConfig): Promise<Opened> {
  const dataSource = await openDatabase(config);
  const sql = new Sql(dataSource);
  const keys = new ApiKeysRepository(sql);
  return { issuer: new ApiKeyIssuer(keys), sandboxes: new SandboxesRepository(sql), keys, close: () => dataSource.destroy() };
}

/**
 * What a key of the sandbox `id` is made with: its environment, the scopes of a sandbox's key unless
 * others are given, and an expiry no later than the sandbox's (which it gets when none is given),
 * by the database's clock. Refuses a sandbox that is unknown, deleted or expired.
 */
async function sandboxKeyOptions(
  command: Extract<Command, { run: 'create' }> & { sandbox: string },
  { sandboxes, keys }: Opened,
): Promise<NewKeyOptions & { capped: boolean }> {
  const now = await keys.now();
  const sandbox = await sandboxes.findActive(command.sandbox, now);
  if (!sandbox) throw new CliError(`no sandbox in use has id ${command.sandbox} (unknown, deleted or expired)`, 1);
  const { expiry } = command.expiry;
  const asked = expiry === null ? null : 'at' in expiry ? expiry.at : new Date(now.getTime() + expiry.afterMs);
  const capped = asked !== null && asked.getTime() > sandbox.expiresAt.getTime();
  return {
    environment: Environment.of(sandbox.rowId),
    scopes: command.scopes ?? SANDBOX_KEY_SCOPES,
    expiry: { at: asked === null || capped ? sandbox.expiresAt : asked },
    capped,
  };
}

async function execute(command: Exclude<Command, { run: 'help' }>, opened: Opened, config: AppConfig): Promise<void> {
  const { issuer } = opened;
  switch (command.run) {
    case 'create': {
      const namesakes = (await issuer.list()).filter((key) => key.name === command.name && !key.revokedAt);
      const { sandbox } = command;
      const { capped = false, ...options }: NewKeyOptions & { capped?: boolean } =
        sandbox === undefined
          ? { scopes: command.scopes ?? SCOPES, expiry: command.expiry.expiry }
          : await sandboxKeyOptions({ ...command, sandbox }, opened);
      const { apiKey, key } = await refusingBadTimes(command, () => issuer.create(command.name, options));
      if (capped)
        process.stderr.write(`apikey: warning: ${command.expiry.option} is after sandbox ${sandbox} expires; the key stops when it does\n`);
      if (namesakes.length > 0) {
        const ids = namesakes.map((namesake) => namesake.id).join(', ');
        process.stderr.write(
          `apikey: warning: active key ${ids} already has the name "${command.name}"; names are labels, ids tell keys apart\n`,
        );
      }
      const of = sandbox === undefined ? '' : ` of sandbox ${sandbox}`;
      process.stderr.write(
        `Created API key ${apiKey.id} "${apiKey.name}"${of}. This is the only time it is shown (${describe(apiKey)}):\n`,
      );
      process.stdout.write(`${key}\n`);
      return;
    }
    case 'list': {
      const sandboxIds = new Map((await opened.sandboxes.all()).map(({ rowId, id }) => [rowId, id]));
      process.stdout.write(keysTable(await issuer.list(), sandboxIds));
      return;
    }
    case 'roll': {
      const id = await resolveKeyId(command.key, issuer);
      const rolled = await refusingBadTimes(command, () => issuer.roll(id, command.overlapMs, command.expiry.expiry));
      if (!rolled) throw new CliError(`no API key has ID ${id}`, 1);
      await announceKeyChanges('apikey', [id], config);
      process.stderr.write(
        `Rolled API key ${id} "${rolled.rolled.name}" to key ${rolled.apiKey.id} (${describe(rolled.apiKey)}). Key ${id} works ` +
          `until ${formatDate(rolled.rolled.expiresAt)} (every instance knows within 1 second); deploy the new key before then. ` +
          'This is the only time it is shown:\n',
      );
      process.stdout.write(`${rolled.key}\n`);
      return;
    }
    case 'scopes': {
      const id = await resolveKeyId(command.key, issuer);
      const apiKey = await issuer.setScopes(id, command.scopes);
      if (!apiKey) throw new CliError(`no API key has ID ${id}`, 1);
      await announceKeyChanges('apikey', [id], config);
      process.stdout.write(
        `API key ${id} "${apiKey.name}" now holds ${listScopes(apiKey.scopes)}; every instance applies it within 1 second.\n`,
      );
      return;
    }
    case 'revoke': {
      const id = await resolveKeyId(command.key, issuer);
      const apiKey = await issuer.revoke(id);
      if (!apiKey) throw new CliError(`no API key has ID ${id}`, 1);
      await announceKeyChanges('apikey', [apiKey.id], config);
      process.stdout.write(
        `Revoked API key ${apiKey.id} "${apiKey.name}" (${apiKey.prefix}…) at ${formatDate(apiKey.revokedAt)}; ` +
          'every instance refuses it within 1 second.\n',
      );
      return;
    }
  }
}

/** Runs `store`, a refused expiry or overlap (past, or later than the database holds) being a usage error. */
async function refusingBadTimes<T>(command: { expiry: GivenExpiry; overlap?: string }, store: () => Promise<T>): Promise<T> {
  try {
    return await store();
  } catch (error) {
    if (!(error instanceof KeyTimeRefusedError)) throw error;
    const option = error.subject === 'overlap' ? `--overlap ${command.overlap}` : command.expiry.option;
    throw new CliError(`${option} ${error.message}`, 2);
  }
}

/** The id a reference names; a prefix must belong to exactly one key, revoked or not, so the tool never guesses. */
async function resolveKeyId(reference: KeyReference, issuer: ApiKeyIssuer): Promise<number> {
  if ('id' in reference) return reference.id;
  const matches = (await issuer.list()).filter((key) => key.prefix.startsWith(reference.prefix) || reference.prefix.startsWith(key.prefix));
  if (matches.length === 0) throw new CliError(`no API key has a prefix starting with ${reference.prefix}`, 1);
  if (matches.length > 1) {
    const ids = matches.map((key) => key.id).join(', ');
    throw new CliError(
      `${reference.prefix} is the start of ${matches.length} keys' prefixes (ids ${ids}); name the key by ID, or give more of the prefix`,
      2,
    );
  }
  return matches[0].id;
}

/** The keys as a table; a sandbox's key says its sandbox (`sandboxIds`: the sandboxes' ids by their rows'; one removed: its number). */
function keysTable(keys: readonly ApiKey[], sandboxIds: ReadonlyMap<number, string>): string {
  const successors = new Map(keys.filter((key) => key.rolledFromId !== null).map((key) => [key.rolledFromId!, key.id]));
  return formatTable([
    ['ID', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED', 'ROLLED', 'ENVIRONMENT'],
    ...keys.map((key) => [
      String(key.id),
      key.name,
      `${key.prefix}…`,
      listScopes(key.scopes),
      formatDate(key.createdAt),
      formatDate(key.expiresAt, 'never'),
      formatDate(key.lastUsedAt, 'never'),
      formatDate(key.revokedAt, '-'),
      [key.rolledFromId !== null && `from ${key.rolledFromId}`, successors.has(key.id) && `to ${successors.get(key.id)}`]
        .filter(Boolean)
        .join(', ') || '-',
      key.environment === 0 ? 'live' : (sandboxIds.get(key.environment) ?? `sandbox ${key.environment} (removed)`),
    ]),
  ]);
}

/** Stored scopes as --scopes takes them. */
function listScopes(stored: string): string {
  return [...readScopes(stored)].join(',');
}

/** A new key's scopes and expiry, for the line that shows it. */
function describe(apiKey: ApiKey): string {
  return `scopes: ${listScopes(apiKey.scopes)}; expires: ${formatDate(apiKey.expiresAt, 'never')}`;
}

async function main(args: readonly string[]): Promise<number> {
  try {
    const command = parseArguments(args);
    if (command.run === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    const config = loadAppConfig(process.env);
    const opened = await openIssuer(config);
    try {
      await execute(command, opened, config);
    } finally {
      await opened.close();
    }
    return 0;
  } catch (error) {
    // The issuer's own refusals say what is wrong as a usage error (a bad name) or a failure (a key that cannot roll) does.
    const explained =
      error instanceof InvalidApiKeyNameError
        ? new CliError(error.message, 2)
        : error instanceof KeyNotRollableError
          ? new CliError(error.message, 1)
          : error;
    return reportFailure('apikey', explained);
  }
}

process.exitCode = await main(process.argv.slice(2));
