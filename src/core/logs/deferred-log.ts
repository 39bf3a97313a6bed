import { environmentLevel, LOG_LEVELS, type Logger, type LogLevel, resolveLevel } from './level.js';
import type { AttemptLine, CallLine, Log } from './log.js';

/** What the client's log writes through: the logger, its level, and the secrets no line may show. */
export interface LogSettings {
  logger: Logger | undefined;
  logLevel: LogLevel | undefined;
  /** Every credential the client holds or held, read per line: one refreshed away stays a secret. */
  secrets: () => ReadonlyArray<string | undefined>;
  /** The client's compiled redaction expressions (response/redact.ts), shared with its errors. */
  patterns: Map<string, RegExp>;
}

/**
 * The client's log (log.ts: its `logger`, default `console`, at its `logLevel`, else `TELEPHONY_LOG`,
 * else `'warn'`), with the line formats and the redaction loaded by `import()` only once a line is due:
 * at construction for a client that logs its calls (info, debug) or has a `TELEPHONY_LOG` to report;
 * at its first warning for one at the default level. A bundle then splits them off what a browser
 * client loads first, and a call that logs nothing reads two flags, with no promise. Lines asked for
 * while the code loads (a warning, for a client at the default level) are written once it has, in the
 * order asked.
 */
export class DeferredLog {
  /** Whether debug lines are written: callers skip building them otherwise (fields, read per attempt). */
  readonly debugging: boolean;
  /** Whether info lines are written. */
  readonly informing: boolean;
  readonly #warning: boolean;
  readonly #settings: LogSettings;
  readonly #level: { level: LogLevel; unknown?: string };
  #log: Log | undefined;
  #loading: Promise<void> | undefined;
  readonly #waiting: Array<(log: Log) => void> = [];

  constructor(settings: LogSettings) {
    this.#settings = settings;
    this.#level = resolveLevel(settings.logLevel, environmentLevel());
    const level = LOG_LEVELS.indexOf(this.#level.level);
    this.debugging = level >= LOG_LEVELS.indexOf('debug');
    this.informing = level >= LOG_LEVELS.indexOf('info');
    this.#warning = level >= LOG_LEVELS.indexOf('warn');
    if (this.informing || this.#level.unknown !== undefined) this.#load();
  }

  /**
   * The code while it loads, `undefined` once it has (or before a line was due): a client that logs
   * its calls waits for it before a call, so each line is written as it happens (call.ts).
   */
  get loading(): Promise<void> | undefined {
    return this.#log === undefined ? this.#loading : undefined;
  }

  /** One attempt (debug). */
  attempt(line: AttemptLine): void {
    if (this.debugging) this.#write((log) => log.attempt(line));
  }

  /** One call, as it ended (info). */
  call(line: CallLine): void {
    if (this.informing) this.#write((log) => log.call(line));
  }

  /** A `'warning'` event (warn). */
  warning(warning: { code: string; message: string }): void {
    if (this.#warning) this.#write((log) => log.warning(warning));
  }

  #write(line: (log: Log) => void): void {
    if (this.#log !== undefined) line(this.#log);
    else {
      this.#waiting.push(line);
      this.#load();
    }
  }

  /**
   * A log that cannot load (a chunk the browser failed to fetch) drops the lines it was given, and
   * the next line tries again: logging never fails a call, nor holds lines without end.
   */
  #load(): void {
    this.#loading ??= import('./log.js').then(
      ({ clientLog }) => {
        const log = clientLog(this.#settings, this.#level);
        for (const line of this.#waiting.splice(0)) line(log);
        this.#log = log;
      },
      () => {
        this.#waiting.length = 0;
        this.#loading = undefined;
      },
    );
  }
}
