import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type BrowserContext } from 'puppeteer-core';
import { chromiumPath } from './global-setup.js';
import { settledWithin } from './settled-within.js';

/** How long Chromium, or one of its contexts, gets to close before it is killed or left behind. */
export const BROWSER_CLOSE_GRACE_MS = 5_000;

/**
 * How long one DevTools call may take: puppeteer's default, 180 s, is three of Jest's hook
 * time-outs, so that a page whose renderer hangs would hold a `page.close()` past any of them.
 */
const PROTOCOL_TIMEOUT_MS = 30_000;

/** Chromium launched for a test file, with a profile of its own; `close()` ends it within seconds whatever its pages are doing. */
export interface Chromium {
  readonly browser: Browser;
  close(): Promise<void>;
}

/** Debian's Chromium (bash scripts/chromium.sh), driven by puppeteer-core. */
export async function launchChromium(): Promise<Chromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'petstore-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    userDataDir,
    protocolTimeout: PROTOCOL_TIMEOUT_MS,
    // As root, and with no network but loopback: nothing in the background reaching out.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  let closing: Promise<void> | undefined;
  return {
    browser,
    // Once: a second call (a finally after the test's own) waits for the first.
    close: () =>
      (closing ??= (async () => {
        await closeBrowser(browser);
        await rm(userDataDir, { recursive: true, force: true });
      })()),
  };
}

/**
 * Closes Chromium, or kills it: `browser.close()` asks it over DevTools and then waits, without a
 * bound, for its process to exit, which a hung renderer or a stuck DevTools call can put off for
 * ever. Past `graceMs` its process group is killed (puppeteer makes the browser the group's
 * leader), and that is said on stderr. Any process of the group left once the browser is gone is
 * killed too: a stopped renderer outlives it, and its inherited stdio would keep Jest from exiting.
 */
export async function closeBrowser(browser: Browser, graceMs = BROWSER_CLOSE_GRACE_MS): Promise<void> {
  const child = browser.process();
  const exited =
    child && child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
  const forced = !(await settledWithin(browser.close(), graceMs));
  if (forced) {
    process.stderr.write(`chromium: not closed within ${graceMs} ms (a page or DevTools call hangs); killing its processes\n`);
    void browser.disconnect().catch(() => undefined);
  }
  if (!child?.pid) return;
  // Its children normally follow it within moments; a stopped renderer never does.
  killGroup(child.pid);
  if (exited && !(await settledWithin(exited, graceMs))) {
    child.kill('SIGKILL');
    throw new Error(`chromium (pid ${child.pid}) still runs ${graceMs} ms after SIGKILL`);
  }
}

/** Kills every process of the group `leader` leads, if any is left. */
function killGroup(leader: number): void {
  try {
    process.kill(-leader, 'SIGKILL');
  } catch {
    // None left (ESRCH).
  }
}

/**
 * Closes a browser context, and with it every connection its pages opened (each context has a
 * network stack of its own): close a service's context before the service, whose stop waits for
 * its connections. Past `graceMs` it is left to closeBrowser, and that is said on stderr.
 */
export async function closeContext(context: BrowserContext, graceMs = BROWSER_CLOSE_GRACE_MS): Promise<void> {
  if (await settledWithin(context.close(), graceMs)) return;
  process.stderr.write(`chromium: a browser context not closed within ${graceMs} ms; left to the browser's close\n`);
}
