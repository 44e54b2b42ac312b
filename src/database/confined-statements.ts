/**
 * The tables whose rows belong to one environment (live or a sandbox: Environment): every statement
 * on one of them names the `environment` column, or says in a comment that it works across every
 * environment (EVERY_ENVIRONMENT: the deliverer's queue, the request log's writer, a sandbox's
 * removal). Sql checks each statement's text the first time it sees it and refuses one that does
 * neither, so a repository that forgot its environment fails the first test that runs it, on either
 * database, instead of reading another environment's rows (DECISIONS "Sandboxes": nothing crosses).
 */
export const CONFINED_TABLES: ReadonlySet<string> = new Set([
  'pets',
  'pet_metadata',
  'orders',
  'order_metadata',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'idempotency_records',
  'request_log',
]);

/** Marks a statement that works across every environment on purpose; it must say so in its text. */
export const EVERY_ENVIRONMENT = '/* every environment */';

const TABLE_NAMED = /\b(?:FROM|JOIN|INTO|UPDATE)\s+([A-Za-z_]+)/gi;
const NAMES_ENVIRONMENT = /\benvironment\b/;

/** A statement on a confined table that names no environment: a repository's mistake, never a client's. */
export class UnconfinedStatementError extends Error {
  constructor(table: string, sql: string) {
    super(
      `a statement on ${table} names no environment (add "environment = ?" with the caller's Environment, ` +
        `or mark it ${EVERY_ENVIRONMENT} when it works across every environment on purpose): ${sql}`,
    );
  }
}

/** Texts already checked: a repository's statements are constants, so each is checked once. */
const checked = new Set<string>();
/** Past this many distinct texts the checks are no longer remembered (bounded memory, should texts ever vary). */
const REMEMBERED = 10_000;

/** Throws UnconfinedStatementError when a statement of `sql` (one or several, `;`-separated) touches a confined table without its environment. */
export function checkConfined(sql: string): void {
  if (checked.has(sql)) return;
  for (const statement of sql.split(';')) {
    if (statement.includes(EVERY_ENVIRONMENT) || NAMES_ENVIRONMENT.test(statement)) continue;
    for (const [, table] of statement.matchAll(TABLE_NAMED)) {
      if (CONFINED_TABLES.has(table.toLowerCase())) throw new UnconfinedStatementError(table, statement);
    }
  }
  if (checked.size < REMEMBERED) checked.add(sql);
}
