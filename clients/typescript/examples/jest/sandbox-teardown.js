/** Jest's globalTeardown: deletes the run's sandbox (sandbox-setup.js); one that already expired is no error. */
export default async function deleteSandbox() {
  await globalThis.petstoreSandbox?.[Symbol.asyncDispose]();
}
