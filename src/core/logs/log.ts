import { escapeControls } from '../escape-controls.js';
import { redactor } from '../response/redact.js';
import { clip } from '../zod-issues.js';
import type { LogSettings } from './deferred-log.js';
import { LOG_LEVELS, type Logger, type LogLevel } from './level.js';

/** What one attempt did, as its debug line tells it. */
export interface AttemptLine {
  requestId: string;
  /** The operation's name (`calls.listRecent`, or `GET /v2/calls/recent`). */
  operation: string;
  method: string;
  /** The URL as events show it (a pre-signed URL without its query). */
  url: string;
  /** 0 for the first try, as in events. */
  attempt: number;
  /** The answer's status; `undefined` for an attempt that got none. */
  status?: number | undefined;
  /** The error class of an attempt that got no answer (`APITimeoutError`). */
  error?: string | undefined;
  ms: number;
  /** What the client does next: another attempt after `waitMs` (and why), or nothing more. */
  next: { retry: true; waitMs: number; reason: string } | { retry: false };
}

/** How a whole call ended, as its info line tells it. */
export interface CallLine {
  requestId: string;
  operation: string;
  attempts: number;
  ms: number;
  /** The last answer's status, for a call that resolved. */
  status?: number | undefined;
  /** The error a call rejected with. */
  error?: { name: string; message: string; outcome?: string | undefined } | undefined;
}

const PREFIX = '[telephony-sdk]';
/**
 * Query parameters whose value is a credential or a signature by its name: left out of a logged URL
 * whatever the client knows of its secrets (a pre-signed URL, a token a user put in `extraQuery`).
 */
const SECRET_PARAM = /token|secret|passw|signature|^sig$|key|credential|auth/i;
/** `url` with the value of each query parameter named like a secret replaced by `[redacted]`. */
export function withoutQuerySecrets(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {}
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

/**
 * The client's log: the line formats of API.md (Logs), filtered by level. Every line passes through
 * the client's redaction (each form of each secret it holds or held) and has its control characters
 * escaped, so no line can carry a credential or be forged by an answer. A logger that throws is
 * ignored, as a listener is: logging never fails a call.
 */
export class Log {
  readonly #logger: Logger;
  readonly #level: number;
  readonly #hide: (text: string) => string;
  /** Whether debug lines are written: callers skip building them otherwise (fields, read per attempt). */
  readonly debugging: boolean;
  /** Whether info lines are written. */
  readonly informing: boolean;

  /** @param hide the client's redaction of a text (response/redact.ts, with the secrets it holds now) */
  constructor(logger: Logger, level: LogLevel, hide: (text: string) => string) {
    this.#logger = logger;
    this.#level = LOG_LEVELS.indexOf(level);
    this.#hide = hide;
    this.debugging = this.#level >= LOG_LEVELS.indexOf('debug');
    this.informing = this.#level >= LOG_LEVELS.indexOf('info');
  }

  /** One attempt (debug). */
  attempt(line: AttemptLine): void {
    if (!this.debugging) return;
    const answer = line.status === undefined ? (line.error ?? 'no answer') : String(line.status);
    const next = line.next.retry ? `retry in ${line.next.waitMs} ms (${line.next.reason})` : 'no retry';
    this.#write(
      'debug',
      `${line.requestId} ${line.operation} attempt ${line.attempt}: ${line.method} ${withoutQuerySecrets(line.url)} → ${answer} in ${line.ms} ms; ${next}`,
    );
  }

  /** One call, as it ended (info). */
  call(line: CallLine): void {
    if (!this.informing) return;
    const { error } = line;
    const end =
      error === undefined
        ? `${line.status ?? 'done'}`
        : `failed with ${error.name}${error.outcome === undefined ? '' : ` (outcome ${error.outcome})`}: ${error.message}`;
    const attempts = `${line.attempts} attempt${line.attempts === 1 ? '' : 's'}`;
    this.#write('info', `${line.requestId} ${line.operation}: ${end} after ${attempts} in ${line.ms} ms`);
  }

  /** A `'warning'` event (warn). */
  warning(warning: { code: string; message: string }): void {
    if (this.#level >= LOG_LEVELS.indexOf('warn'))
      this.#write('warn', `warning ${warning.code}: ${warning.message}`);
  }

  #write(level: 'debug' | 'info' | 'warn', text: string): void {
    try {
      this.#logger[level](`${PREFIX} ${escapeControls(this.#hide(text))}`);
    } catch {
      // A broken logger must not fail the call it reports on.
    }
  }
}

/**
 * The log of a client (deferred-log.ts loads this file when a line is due): its `logger` (default
 * `console`) at the level resolved from its `logLevel`, `TELEPHONY_LOG` or the default, each line
 * redacted with the secrets the client holds at the time. A `TELEPHONY_LOG` that names no level is
 * said once, at `'warn'`.
 */
export function clientLog(
  { logger, secrets, patterns }: LogSettings,
  { level, unknown }: { level: LogLevel; unknown?: string | undefined },
): Log {
  const log = new Log(logger ?? console, level, (text) => redactor(secrets(), patterns)(text) as string);
  if (unknown !== undefined)
    log.warning({
      code: 'unknown_log_level',
      message: `TELEPHONY_LOG=${JSON.stringify(clip(unknown))} names no level (${LOG_LEVELS.join(', ')}): logging at warn`,
    });
  return log;
}
