/**
 * What an API key may do: read the animals, add them, read the orders and the inventory, place
 * orders, see and manage webhook endpoints and events, read its own requests' log. A write scope
 * does not imply its read scope: a checkout backend may place orders it cannot list (but a change
 * of an existing resource needs both, as its answer shows it). A key holds any set of them; one
 * made without a choice holds all.
 */
export const SCOPES = [
  'pets:read',
  'pets:write',
  'store:read',
  'store:write',
  'webhooks:read',
  'webhooks:write',
  'requests:read',
  'sandboxes:read',
  'sandboxes:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Scopes as stored: space-separated, in SCOPES order (the form of OAuth's `scope`). */
export function formatScopes(scopes: Iterable<Scope>): string {
  const held = new Set(scopes);
  return SCOPES.filter((scope) => held.has(scope)).join(' ');
}

/** Stored scopes read back; a word that is no scope (written by a later version, say) grants nothing. */
export function readScopes(stored: string): ReadonlySet<Scope> {
  return new Set(stored.split(' ').filter(isScope));
}

/** The scopes of managing sandboxes, which only a live key may use whatever it holds (ScopeGuard). */
const SANDBOX_MANAGEMENT: ReadonlySet<Scope> = new Set(['sandboxes:read', 'sandboxes:write']);

/** Whether a route that needs `scopes` manages sandboxes. */
export function managesSandboxes(scopes: readonly Scope[]): boolean {
  return scopes.some((scope) => SANDBOX_MANAGEMENT.has(scope));
}

/** What a sandbox's key made without a choice holds: everything a live key may do there, all but managing sandboxes. */
export const SANDBOX_KEY_SCOPES: readonly Scope[] = SCOPES.filter((scope) => !SANDBOX_MANAGEMENT.has(scope));
