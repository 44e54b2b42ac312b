/**
 * The operator's view of the request log, against whichever database DATABASE_URL names, with or
 * without the service running: `tail` prints the last few entries of every key and follows new
 * ones, as `tail -f` and `stripe logs tail` do; `show ID` prints one request whole, what only the
 * operator sees of it included (its key, client address and User-Agent). Both cross every
 * environment on purpose (the operator watches live and sandboxes alike) and say each entry's. What a client sent is
 * printed with its control characters escaped and its key-shaped text redacted, so that it can
 * neither drive the operator's terminal nor forge a line. `npm run requests -- --help` says how.
 * Exit codes: 0 done (tail: stopped by a signal), 1 failed (database, no such request), 2 used wrongly.
 */
// First: refuses an unsupported Node before anything else loads.
import '../supported-node.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadAppConfig } from '../config/app-config.js';
import { Sql } from '../database/sql.js';
import { RequestLogEntry } from '../request-log/request-log.entity.js';
import { RequestLogRepository, type StoredRequest } from '../request-log/request-log.repository.js';
import { CliError, openDatabase, reportFailure } from './operator-tool.js';
import { printable } from './printable.js';

const USAGE =
  'usage: npm run requests -- tail [--lines N] [--status 404|4xx] [--operation OPERATION_ID] [--key ID] | show REQUEST_ID | --help';
const HELP = `${USAGE}

  tail            Prints the last entries of every key, live and sandboxes alike, then each new one as it
                  is written (a line each: time, status, operation, path, key, environment (live, or
                  sandbox N), duration, error code, and ×N for an entry of N rate-limited answers)
                  until interrupted (Ctrl-C).
    --lines N, -n N  How many of the last entries to print first (10; 0 for none).
    --status S    Only entries answered S (404) or of its class (4xx).
    --operation O Only entries of the operation O (an operationId, such as createPet).
    --key ID      Only entries of the key ID (its number in \`npm run apikey -- list\`, or an id as key-7 or env-…).
  show ID         Prints the entries of the request ID (an X-Request-Id) in every environment, newest first,
                  whole.

What a client sent is printed with control characters escaped (\\x1b, \\n, \\u202e; a backslash as \\\\).
The service writes entries in batches, within about a second of each answer; they are kept for
REQUEST_LOG_DAYS days (7). Exit codes: 0 done, 1 failed, 2 used wrongly.
`;

/** How many of the last entries tail prints first, as tail(1) does. */
const LAST_LINES = 10;
/** How far back tail looks for its last entries when a filter leaves few: a bounded read, not the table. */
const LAST_SCANNED = 10_000;

/** How often tail asks for new entries. */
const POLL_MS = 500;

type Command =
  | { run: 'help' }
  | { run: 'show'; requestId: string }
  | { run: 'tail'; lines: number; status?: string; operation?: string; keyId?: string };

function parseArguments(args: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        help: { type: 'boolean' },
        lines: { type: 'string', short: 'n' },
        status: { type: 'string' },
        operation: { type: 'string' },
        key: { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : error}\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  const [run, ...rest] = positionals;
  if (values.help || run === 'help') return { run: 'help' };
  if (run === 'show') {
    if (
      rest.length !== 1 ||
      values.status !== undefined ||
      values.operation !== undefined ||
      values.key !== undefined ||
      values.lines !== undefined
    )
      throw new CliError(`show needs exactly one REQUEST_ID\n${USAGE}`, 2);
    return { run: 'show', requestId: rest[0] };
  }
  if (run === 'tail') {
    if (rest.length > 0) throw new CliError(`tail takes no ${rest[0]}\n${USAGE}`, 2);
    if (values.status !== undefined && !/^[1-5](\d\d|xx)$/.test(values.status))
      throw new CliError(`--status must be a status such as 404 or a class such as 4xx (got "${values.status}")`, 2);
    if (values.operation !== undefined && !/^[A-Za-z]{1,64}$/.test(values.operation))
      throw new CliError(`--operation must be an operationId such as createPet (got "${values.operation}")`, 2);
    if (values.lines !== undefined && !(/^\d{1,4}$/.test(values.lines) && Number(values.lines) <= 1000))
      throw new CliError(`--lines must be a number from 0 to 1000 (got "${values.lines}")`, 2);
    const keyId = values.key === undefined ? undefined : /^\d+$/.test(values.key) ? `key-${values.key}` : values.key;
    return {
      run: 'tail',
      lines: values.lines === undefined ? LAST_LINES : Number(values.lines),
      status: values.status,
      operation: values.operation,
      keyId,
    };
  }
  throw new CliError(USAGE, 2);
}

/** An entry's environment as the operator reads it: `live`, or `sandbox 12` (the sandbox's number in the sandboxes table). */
function environmentOf(entry: StoredRequest): string {
  return entry.environment === 0 ? 'live' : `sandbox ${entry.environment}`;
}

/** One line of tail: time, status, operation, path, key, environment, duration, error code, and how many answers it counts (×240). */
function line(entry: StoredRequest): string {
  const operation = entry.operation ?? '-';
  return [
    entry.createdAt.toISOString(),
    entry.status,
    operation.padEnd(22),
    printable(entry.method),
    printable(entry.path),
    printable(entry.keyId),
    environmentOf(entry),
    `${entry.durationMs}ms`,
    entry.errorCode ?? '',
    entry.count > 1 ? `×${entry.count}` : '',
  ]
    .join('  ')
    .trimEnd();
}

/** Every field of an entry, one a line: the operator's whole view of a request. */
function whole(entry: StoredRequest): string {
  const fields: [string, unknown][] = [
    ['id', entry.requestId],
    ['createdAt', entry.createdAt.toISOString()],
    ['method', entry.method],
    ['path', entry.path],
    ['operation', entry.operation],
    ['status', entry.status],
    ['durationMs', entry.durationMs],
    ['idempotencyKey', entry.idempotencyKey],
    ['replayed', entry.replayed],
    ['error', entry.errorCode === null ? null : `${entry.errorCode}: ${entry.errorMessage}`],
    ['count', entry.count],
    ['key', entry.keyId],
    ['environment', environmentOf(entry)],
    ['clientAddress', entry.clientAddress],
    ['userAgent', entry.userAgent],
  ];
  return `${fields.map(([name, value]) => `${name.padEnd(15)}${value === null ? '-' : printable(String(value))}`).join('\n')}\n`;
}

function matches(entry: StoredRequest, { status, operation, keyId }: Extract<Command, { run: 'tail' }>): boolean {
  if (status !== undefined && (status.endsWith('xx') ? entry.statusClass !== Number(status[0]) : entry.status !== Number(status)))
    return false;
  if (operation !== undefined && entry.operation !== operation) return false;
  return keyId === undefined || entry.keyId === keyId;
}

/** The last `count` entries that match, oldest first, looked for among the last LAST_SCANNED rows. */
async function lastMatching(
  entries: RequestLogRepository,
  command: Extract<Command, { run: 'tail' }>,
  from: number,
): Promise<StoredRequest[]> {
  const found: StoredRequest[] = [];
  for (let before = from + 1, scanned = 0; found.length < command.lines && scanned < LAST_SCANNED;) {
    const page = await entries.before(before, 500);
    if (page.length === 0) break;
    scanned += page.length;
    before = page.at(-1)!.rowId;
    found.push(...page.filter((entry) => matches(entry, command)));
  }
  return found.slice(0, command.lines).reverse();
}

async function tail(entries: RequestLogRepository, command: Extract<Command, { run: 'tail' }>, stopped: AbortSignal): Promise<void> {
  let after = await entries.lastRowId();
  for (const entry of await lastMatching(entries, command, after)) process.stdout.write(`${line(entry)}\n`);
  process.stderr.write('requests: following new entries (Ctrl-C to stop)\n');
  while (!stopped.aborted) {
    const found = await entries.after(after, 500);
    for (const entry of found) {
      after = entry.rowId;
      if (matches(entry, command)) process.stdout.write(`${line(entry)}\n`);
    }
    if (found.length < 500) await sleep(POLL_MS, undefined, { signal: stopped }).catch(() => undefined);
  }
}

async function main(args: readonly string[]): Promise<number> {
  try {
    const command = parseArguments(args);
    if (command.run === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    const config = loadAppConfig(process.env);
    const dataSource = await openDatabase(config, [RequestLogEntry]);
    try {
      const entries = new RequestLogRepository(new Sql(dataSource));
      if (command.run === 'show') {
        const found = await entries.byRequestIdOfAnyKey(command.requestId);
        if (found.length === 0)
          throw new CliError(`no request has id ${JSON.stringify(command.requestId)} (or it is older than the log keeps)`, 1);
        process.stdout.write(found.map(whole).join('\n'));
      } else {
        const stop = new AbortController();
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
        await tail(entries, command, stop.signal);
      }
    } finally {
      await dataSource.destroy();
    }
    return 0;
  } catch (error) {
    return reportFailure('requests', error);
  }
}

process.exitCode = await main(process.argv.slice(2));
