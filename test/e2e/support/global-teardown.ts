/** Removes the database container TEST_DATABASE=container started (global-setup.ts), whatever the tests did. */
export default async function globalTeardown(): Promise<void> {
  // The same registered symbol as DATABASE_CONTAINER: Jest loads this file without mapping relative imports.
  const container = (globalThis as Record<symbol, { stop(): Promise<unknown> } | undefined>)[Symbol.for('petstore.e2e.databaseContainer')];
  await container?.stop();
}
