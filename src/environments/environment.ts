/**
 * Where a request's reads and writes happen: live, or one sandbox (DECISIONS "Sandboxes"). Every
 * row of every table that holds an integrator's data carries its environment's number (`environment`:
 * 0 for live, a sandbox's own id otherwise), and every statement on such a table names it
 * (EnvironmentScopedSql refuses one that does not). An environment is made only from a key the
 * request was admitted with (ApiKeyPrincipal) or, for the service's own work, from a stored row:
 * repositories take it as a parameter, never read it from a client's text.
 */
export class Environment {
  /** The live environment: what every request was in before 1.6.0. */
  static readonly LIVE = new Environment(0);

  private constructor(
    /** The `environment` column's value: 0 live, a sandbox's numeric id otherwise. */
    readonly id: number,
  ) {}

  /** The environment of the sandbox with this numeric id (the sandboxes table's), or live for 0 (a stored row's column). */
  static of(id: number): Environment {
    if (id === 0) return Environment.LIVE;
    if (!Number.isSafeInteger(id) || id < 0) throw new Error(`${id} is no environment`);
    return new Environment(id);
  }

  /** `livemode` of every object, event and log entry: true live, false in a sandbox (Stripe's name). */
  get livemode(): boolean {
    return this.id === 0;
  }

  /** For logs and metrics: `live` or `sandbox`, never a sandbox's id (a metric label per sandbox would grow without bound). */
  get kind(): 'live' | 'sandbox' {
    return this.id === 0 ? 'live' : 'sandbox';
  }
}
