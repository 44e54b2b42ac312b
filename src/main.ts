import { Logger } from '@nestjs/common';
import { type AppConfig, ConfigError, loadAppConfig } from './config/app-config.js';
import { createApp } from './create-app.js';

async function main(): Promise<void> {
  const config = loadAppConfig(process.env);
  const app = await createApp(config);
  app.enableShutdownHooks();
  await app.listen(config.port, config.host);
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  new Logger('Main').log(`Listening on ${url} with ${describeDatabase(config)}; docs at ${url}/v1/docs`);
}

function describeDatabase({ database }: AppConfig): string {
  return database.kind === 'mysql' ? `MySQL at ${new URL(database.url).host}` : `SQLite file ${database.file}`;
}

main().catch((error: unknown) => {
  // One line, no stack trace: the operator needs to know what to fix, not where it was noticed.
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error);
  console.error(`petstore: cannot start: ${message}`);
  process.exit(1);
});
