/**
 * Reads `read` every `everyMs` (50 ms) until `done` holds of what it read, or `timeoutMs` has
 * passed, and answers the last value read: what a background writer (the request log's, the webhook
 * deliverer, the sandbox remover) has done by then, for the test to assert on, so that a failure
 * shows what was read.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
