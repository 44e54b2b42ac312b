import { PetStoreError } from '../../../clients/typescript/src/index.js';

/** What an SDK call threw: a PetStoreError, else the test fails here. */
export async function failure(call: Promise<unknown>): Promise<PetStoreError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof PetStoreError)) throw new Error(`expected a PetStoreError, got ${String(error)}`);
  return error;
}
