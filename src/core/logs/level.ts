/**
 * How much the client logs, and where the default comes from. Kept apart from the line formats
 * (log.ts) because it is read once, at construction.
 */

/** From quietest to most verbose; each level includes the ones before it. */
/** How much the client logs: `'warn'` by default (warnings only), `'debug'` for one line per attempt. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** The log levels, from none to most: each level logs its own lines and those of the levels before it. */
export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/**
 * Where log lines go: `console`, a pino or winston logger, or anything with these four methods. Each
 * line is one string argument, so every logger prints it as is.
 */
export interface Logger {
  /** One line per attempt (`logLevel: 'debug'`). */
  debug(message: string): void;
  /** One line per call (`logLevel: 'info'`). */
  info(message: string): void;
  /** One line per `'warning'` event (the default level). */
  warn(message: string): void;
  /** Reserved for failures of the SDK itself; nothing is logged at this level today. */
  error(message: string): void;
}

export const isLogLevel = (value: unknown): value is LogLevel =>
  typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);

/**
 * `TELEPHONY_LOG` where the runtime has an environment (Node, Bun, Deno's Node layer, Workers with
 * `nodejs_compat`). Read defensively: an edge runtime may have no `process`, or one whose `env`
 * throws when touched, and neither may break a client.
 */
export function environmentLevel(): string | undefined {
  try {
    const value = (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env?.TELEPHONY_LOG;
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The level a client logs at: its `logLevel`, else `TELEPHONY_LOG`, else `'warn'`. An environment
 * value that names no level is reported (`unknown`) rather than guessed at: a typo must not silently
 * turn debugging off.
 */
export function resolveLevel(
  option: LogLevel | undefined,
  environment: string | undefined,
): { level: LogLevel; unknown?: string } {
  if (option !== undefined) return { level: option };
  if (environment === undefined) return { level: 'warn' };
  const named = environment.trim().toLowerCase();
  return isLogLevel(named) ? { level: named } : { level: 'warn', unknown: environment };
}
