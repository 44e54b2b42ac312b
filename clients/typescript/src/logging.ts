/** Where the client says what it did: the console by default; anything with these two methods (pino, winston, …) fits. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
}

/**
 * `info`: each answer (method, path, status, duration, request id), each attempt that had none,
 * each retry with its wait and each wait refused; `debug`: each attempt as it is sent, too; `off`:
 * nothing. No level ever logs the API key or a body.
 */
export type LogLevel = 'off' | 'info' | 'debug';

const LEVELS: readonly string[] = ['off', 'info', 'debug'] satisfies LogLevel[];

/** The console's stderr, where Python's logging writes too: a program's standard output stays its own. */
export const consoleLogger: Logger = {
  debug: (message) => console.error(`${new Date().toISOString()} petstore DEBUG ${message}`),
  info: (message) => console.error(`${new Date().toISOString()} petstore INFO ${message}`),
};

/** The level asked for: the option, else PETSTORE_LOG (`info` or `debug`; anything else logs nothing). */
export function logLevelOf(option: LogLevel | undefined, variable: string | undefined): LogLevel {
  if (option !== undefined) {
    if (!LEVELS.includes(option)) throw new Error(`logLevel must be 'off', 'info' or 'debug' (got ${String(option)}).`);
    return option;
  }
  const named = variable?.trim().toLowerCase() ?? 'off';
  return LEVELS.includes(named) ? (named as LogLevel) : 'off';
}

/** The client's log at its level. */
export class Log {
  constructor(
    readonly logger: Logger,
    readonly level: LogLevel,
  ) {}

  info(message: string): void {
    if (this.level !== 'off') this.logger.info(message);
  }

  debug(message: string): void {
    if (this.level === 'debug') this.logger.debug(message);
  }
}
