/**
 * The operator's view of the sandboxes, against whichever database DATABASE_URL names, with or
 * without the service running: `list` prints every sandbox still stored (in use, or deleted or
 * expired with rows still to remove) and how many rows it holds; `delete ID` deletes one as
 * `DELETE /v1/sandboxes/{id}` does: its keys refused within a second on every instance, its rows
 * removed by the service in the background. `npm run sandboxes -- --help` says how.
 * Exit codes: 0 done, 1 failed (database, no such sandbox), 2 used wrongly.
 */
// First: refuses an unsupported Node before anything else loads.
import '../supported-node.js';
import { ApiKeyIssuer } from '../auth/api-key-issuer.js';
import { ApiKeysRepository } from '../auth/api-keys.repository.js';
import { loadAppConfig } from '../config/app-config.js';
import { Sql } from '../database/sql.js';
import { Environment } from '../environments/environment.js';
import { SANDBOX_TABLES, SandboxRowsRepository } from '../sandboxes/sandbox-rows.repository.js';
import { type StoredSandbox, SandboxesRepository } from '../sandboxes/sandboxes.repository.js';
import { markSandboxDeleted } from '../sandboxes/sandboxes.service.js';
import { announceKeyChanges } from './key-changes.js';
import { CliError, openDatabase, reportFailure } from './operator-tool.js';
import { printable } from './printable.js';
import { formatDate, formatTable } from './table.js';

const USAGE = 'usage: npm run sandboxes -- list | delete SANDBOX_ID | --help';
const HELP = `${USAGE}

Lists and deletes the sandboxes of the Pet Store service, in the database DATABASE_URL names (the
SQLite file data/petstore.sqlite when it is unset), while the service runs or not.

  list            Every sandbox still stored: id, name, created, expires, state (active; deleted
                  or expired, whose rows the service is removing) and the rows it holds (its pets,
                  and all its rows in every table).
  delete ID       Deletes the sandbox ID (sbx_…) at once, as DELETE /v1/sandboxes/{id} does: its
                  keys are refused within 1 second on every instance (at once with REDIS_URL set),
                  it is no longer listed by the API, and a running service removes its rows in the
                  background.
  help, --help, -h   This text.

Integrators make sandboxes through the API (POST /v1/sandboxes), at most SANDBOXES_MAX (25) at once.
More keys of one: npm run apikey -- create NAME --sandbox ID.
Exit codes: 0 done, 1 failed (database, no such sandbox), 2 used wrongly.
`;

type Command = { run: 'help' } | { run: 'list' } | { run: 'delete'; id: string };

function parseArguments(args: readonly string[]): Command {
  const [command, ...rest] = args;
  if (['help', '--help', '-h'].includes(command) && rest.length === 0) return { run: 'help' };
  if (command === 'list' && rest.length === 0) return { run: 'list' };
  if (command === 'delete') {
    if (rest.length !== 1) throw new CliError('delete needs exactly one SANDBOX_ID', 2);
    if (!/^sbx_[A-Za-z0-9_-]{1,36}$/.test(rest[0]))
      throw new CliError(`delete needs a sandbox's id, sbx_… as list shows it (got "${rest[0]}")`, 2);
    return { run: 'delete', id: rest[0] };
  }
  throw new CliError(USAGE, 2);
}

function stateOf(sandbox: StoredSandbox, now: Date): string {
  if (sandbox.deletedAt) return `deleted ${formatDate(sandbox.deletedAt)}, removing`;
  return sandbox.expiresAt.getTime() <= now.getTime() ? 'expired, removing' : 'active';
}

async function list(sandboxes: SandboxesRepository, rows: SandboxRowsRepository): Promise<string> {
  const now = new Date();
  const lines = [['ID', 'NAME', 'CREATED', 'EXPIRES', 'STATE', 'PETS', 'ROWS']];
  for (const sandbox of await sandboxes.all()) {
    const counts = await rows.count(Environment.of(sandbox.rowId));
    const total = SANDBOX_TABLES.reduce((sum, table) => sum + counts[table], 0);
    lines.push([
      sandbox.id,
      printable(sandbox.name),
      formatDate(sandbox.createdAt),
      formatDate(sandbox.expiresAt),
      stateOf(sandbox, now),
      String(counts.pets),
      String(total),
    ]);
  }
  return formatTable(lines);
}

async function main(args: readonly string[]): Promise<number> {
  try {
    const command = parseArguments(args);
    if (command.run === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    const config = loadAppConfig(process.env);
    const dataSource = await openDatabase(config);
    try {
      const sql = new Sql(dataSource);
      const sandboxes = new SandboxesRepository(sql);
      if (command.run === 'list') {
        process.stdout.write(await list(sandboxes, new SandboxRowsRepository(sql)));
      } else {
        const keys = new ApiKeysRepository(sql);
        const deleted = await markSandboxDeleted(sandboxes, new ApiKeyIssuer(keys), command.id, await keys.now());
        if (!deleted) throw new CliError(`no sandbox in use has id ${command.id} (unknown, deleted or expired)`, 1);
        await announceKeyChanges('sandboxes', deleted.keyIds, config);
        process.stdout.write(
          `Deleted sandbox ${deleted.sandbox.id} "${printable(deleted.sandbox.name)}": its ${deleted.keyIds.length} API keys are refused ` +
            'within 1 second on every instance; the service removes its rows in the background.\n',
        );
      }
    } finally {
      await dataSource.destroy();
    }
    return 0;
  } catch (error) {
    return reportFailure('sandboxes', error);
  }
}

process.exitCode = await main(process.argv.slice(2));
