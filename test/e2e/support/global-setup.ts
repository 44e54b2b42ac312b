import mysql from 'mysql2/promise';

/** The MySQL server the e2e suite makes its own databases on. */
export function mysqlServerUrl(): string {
  return (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
}

/** Set here, once the server has been asked; read by the test files. */
export const MYSQL_PROBE_VARIABLE = 'PETSTORE_E2E_MYSQL';

/**
 * Asks the MySQL server once whether the MySQL half of the e2e suite can run. Without a server the
 * suite says loudly that half of it did not run; under CI that is a failure.
 */
export default async function globalSetup(): Promise<void> {
  const url = mysqlServerUrl();
  try {
    const connection = await mysql.createConnection({ uri: url, connectTimeout: 3_000 });
    await connection.query('SELECT 1');
    await connection.end();
    process.env[MYSQL_PROBE_VARIABLE] = 'available';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const banner = [
      '',
      '#'.repeat(78),
      `#  MySQL e2e tests DID NOT RUN: no MySQL server answers at ${redact(url)}`,
      `#  (${reason}).`,
      '#  Set TEST_DATABASE_URL to a server this user may create databases on.',
      '#'.repeat(78),
      '',
    ].join('\n');
    if (process.env.CI === 'true') throw new Error(`${banner}\nCI=true: the MySQL half of the suite is required.`);
    process.stderr.write(banner);
    process.env[MYSQL_PROBE_VARIABLE] = 'unavailable';
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
