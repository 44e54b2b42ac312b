import { PetStore } from '@petstore/client';

/**
 * Jest's globalSetup: one sandbox for the whole run, made with CI's key (PETSTORE_CI_KEY: a live key
 * that holds sandboxes:read and sandboxes:write only). The test files then find the sandbox's key as
 * PETSTORE_API_KEY, which `new PetStore()` reads: Jest starts them after this, with this environment.
 * The sandbox is kept for sandbox-teardown.js, which Jest runs in this same process.
 */
export default async function makeSandbox() {
  const ci = new PetStore({ apiKey: process.env.PETSTORE_CI_KEY });
  // A run killed before its teardown leaves a sandbox that expires by itself within the hour.
  const sandbox = await ci.sandboxes.forTest({
    name: `ci ${process.env.GITHUB_RUN_ID ?? 'local'} ${new Date().toISOString()}`,
    expiresIn: 3600,
  });
  globalThis.petstoreSandbox = sandbox;
  process.env.PETSTORE_API_KEY = sandbox.apiKey;
  console.log(`\nPet Store sandbox ${sandbox.id} for this run`);
}
