import type { Tracer } from '../shared/tracer.js';
import { BEARER_RULE, isHeaderSafe } from './auth/credentials.js';
import { type Clock, systemClock } from './clock.js';
import { invalid, ValidationError } from './errors.js';
import { isLogLevel, LOG_LEVELS, type Logger, type LogLevel } from './logs/level.js';
import { budgetOf, PLANS, type RateLimit } from './pacing/plans.js';
import type { RateBudget, SharedState } from './pacing/shared-state.js';
import { mergeHeaders } from './request/route.js';
import type { Middleware } from './transport/middleware.js';
import type { RequestOptions } from './types.js';
import { clip } from './zod-issues.js';

/**
 * Options of `new TelephonyClient(...)`. Credentials are kept in private fields, never logged.
 * v2 needs `baseUrl` and either `clientId` + `clientSecret` or `accessToken`; v1 (users) needs
 * `baseUrlV1` and `apiKey`. Invalid values make the constructor throw {@link ValidationError}.
 */
export interface ClientOptions {
  /** `{base_url}` of SPEC.md; the SDK appends `/v2/...`. Needed for v2 calls. */
  baseUrl?: string | undefined;
  /** `{base_url_v1}`; the SDK appends `/v1/...`. Needed for v1 calls (users). */
  baseUrlV1?: string | undefined;
  /** OAuth client id for v2 (client-credentials grant); goes with `clientSecret`. */
  clientId?: string | undefined;
  /**
   * OAuth client secret for v2; goes with `clientId`. The token is requested on first use, cached,
   * and renewed 60 s before it expires. Refused in a browser unless `dangerouslyAllowBrowser`.
   */
  clientSecret?: string | undefined;
  /** Requested scopes; an array is sent space-separated. Omitted: the application's scopes. */
  scope?: string | string[] | undefined;
  /**
   * Alternative for v2: a token, or a function returning one (asked at each request, and again after a
   * 401). A function that rejects fails the call with a `TelephonyError` whose `cause` is its error.
   */
  accessToken?: string | (() => Promise<string>) | undefined;
  /** Bearer key for v1 (users). Never sent to v2. Refused in a browser unless `dangerouslyAllowBrowser`. */
  apiKey?: string | undefined;
  /** Retries after the first attempt (0 disables retries). Default 2. Per call: `RequestOptions.maxRetries`. */
  maxRetries?: number | undefined;
  /** Milliseconds per attempt (not for the whole call with its retries). Default 60 000. Per call: `RequestOptions.timeout`. */
  timeout?: number | undefined;
  /**
   * Longest `Retry-After`, in **seconds**, the client will wait before retrying a 429 or 503; a longer one
   * fails at once (a 429 as {@link RateLimitError} with `retryAfter`). Also the longest a 429 pauses the
   * account (every call of the clients sharing its state), whatever `Retry-After` said, and the longest
   * wait for rate budget or a pause a call accepts. Default 60. Per call: `RequestOptions.maxRetryAfter`.
   */
  maxRetryAfter?: number | undefined;
  /**
   * Longest answer read, in bytes (default 8 MiB). A longer 2xx body rejects with
   * `ResponseValidationError` (code `response_too_large`) and the rest is not read; a longer error
   * answer keeps its class and status, with a message from its first bytes. `downloadRecording` is not
   * capped. Per call: `RequestOptions.maxResponseBytes`.
   */
  maxResponseBytes?: number | undefined;
  /** Custom fetch. Default: `globalThis.fetch`, read at each request. */
  fetch?: typeof fetch | undefined;
  /** Sent with every request; cannot replace `Authorization`. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Allow `clientSecret`/`apiKey` in a browser, where every visitor can read them. */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * Paces requests so that no 60-second window holds more than the plan's requests per minute
   * (SPEC.md, Limits: `'starter'` 100, `'pro'` 500, `'enterprise'` 2000, or `{ requestsPerMinute }`),
   * counted across every client sharing one `sharedState`; v1 paths have their own budget of the same
   * size. A call that would wait longer than `maxRetryAfter` rejects at once with `RateLimitError`.
   * Default `false`: no pacing (a 429's `Retry-After` still pauses the client).
   */
  rateLimit?: RateLimit | undefined;
  /**
   * Rate budget, 429 pauses and the OAuth token shared by every client using it (across processes
   * with `redisState` from `telephony-sdk/redis`). Default: the client's own, in memory.
   */
  sharedState?: SharedState | undefined;
  /**
   * With `sharedState`: whose budget, 429 pauses and token these are. Clients of one account share all
   * three (whatever token each holds); clients of different accounts share nothing. Default: `clientId`;
   * with `sharedState` and neither, the constructor throws. Stored in the state's keys: never a secret.
   */
  account?: string | undefined;
  /**
   * An OpenTelemetry `Tracer` (`trace.getTracer('my-app')`): each call becomes a span (`calls.create`),
   * each HTTP attempt a `CLIENT` span under it carrying a `traceparent` header, each wait an event
   * (docs/observability.md). The SDK imports no OpenTelemetry code, nor its types
   * (`Tracer` here is the part of its API the SDK calls). Default: no spans, and no cost.
   */
  tracer?: Tracer | undefined;
  /** Time source for backoff waits, pacing and token expiry (tests inject a fake). */
  clock?: Clock | undefined;
  /**
   * Where log lines go: any `{ debug, info, warn, error }` (`console`, pino, winston). Default `console`.
   * No line holds a credential (docs/debugging.md).
   */
  logger?: Logger | undefined;
  /**
   * `'off'`, `'error'`, `'warn'` (default: the warnings), `'info'` (a line per call) or `'debug'` (a line
   * per attempt). Default: the `TELEPHONY_LOG` environment variable where there is one, else `'warn'`.
   */
  logLevel?: LogLevel | undefined;
  /**
   * Functions around every attempt, in order, after the credential is set and before `fetch`:
   * `(request, next, { operation, attempt, requestId }) => Promise<Response>`. `next` may be called once
   * per attempt. See {@link Middleware}.
   */
  middleware?: readonly Middleware[] | undefined;
  /**
   * Milliseconds for the whole call: every attempt, every wait and the wait for a token. Past it, or
   * when a wait would pass it, the call rejects with `APITimeoutError`. Default: none. Per call:
   * `RequestOptions.totalTimeout`.
   */
  totalTimeout?: number | undefined;
}

export const DEFAULTS = {
  maxRetries: 2,
  timeout: 60_000,
  maxRetryAfter: 60,
  maxResponseBytes: 2 ** 23, // 8 MiB
} as const;

function fail(option: string, message: string): never {
  // The name may be the caller's (an unknown key, a header name): a 5 MB one is cut.
  const name = clip(option, 100);
  throw invalid(`Invalid option ${name}`, name, message);
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Checks one option's value, never `undefined` (an option left out); the message names `option`. */
type Check = (value: unknown, option: string) => void;

function checkUrl(value: unknown, option: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value as string);
  } catch {}
  // Never echoed, nor left for fetch to refuse: its error would quote the URL, password included.
  if (typeof value !== 'string' || !/^https?:\/\/[^/]/.test(value) || !url || url.username || url.password)
    fail(option, 'must be an http(s) URL without user name or password');
  // The SDK appends /v2/… (or /v1/…) itself: a base ending in a version would ask for /v2/v2/….
  if (/\/v[12]\/?$/.test(value))
    fail(
      option,
      `must not end in /v1 or /v2: the SDK appends ${option === 'baseUrl' ? '/v2' : '/v1'} itself`,
    );
}

/**
 * Refuses what cannot go into an HTTP header value (fetch would throw with the value in its message, or
 * a proxy split the header): a control character but tab, DEL, anything above U+00FF.
 */
function checkHeaderValue(value: unknown, option: string): void {
  if (typeof value !== 'string' || /[^\t\x20-\x7e\x80-\xff]/.test(value))
    fail(option, 'must have no control or non-Latin-1 character');
}

/** A non-empty string that can go into an HTTP header (the client id and secret go in the token request's form). */
const checkString: Check = (value, option) => {
  if (value === '' || typeof value !== 'string') fail(option, 'must be a non-empty string');
  checkHeaderValue(value, option);
};

/**
 * A bearer value (a static `accessToken`, an `apiKey`): the one rule every credential source keeps,
 * the same the value of the `accessToken` function is held to (auth/credentials.ts).
 */
const checkBearer: Check = (value, option) => {
  if (typeof value !== 'string' || !isHeaderSafe(value)) fail(option, `must be ${BEARER_RULE}`);
};

/**
 * Headers that frame the request or that fetch forbids: set by hand they make fetch throw, or a proxy
 * read a different request (a `content-length` that does not match the body); fetch sets them itself.
 */
const FRAMING =
  /^(?:content-length|transfer-encoding|connection|host|expect|keep-alive|upgrade|te|trailer)$/i;

/**
 * Checks request headers (`defaultHeaders`, a call's `headers`): each name an HTTP token that does not
 * frame the request, each value a string that can go into a header (`undefined` leaves the header
 * out). The {@link ValidationError} names `option` and the header (`headers.x-trace`), never a value,
 * nor a name that is not a token.
 */
export function validateHeaders(headers: unknown, option = 'headers'): void {
  if (headers === undefined) return;
  if (!isObject(headers)) fail(option, 'must be an object');
  for (const name in headers) {
    if (!/^[\w!#$%&'*+.^`|~-]+$/.test(name)) fail(option, 'a header name is not an HTTP token');
    if (FRAMING.test(name)) fail(`${option}.${name}`, 'frames the request: fetch sets it, never the caller');
    const value = (headers as Record<string, unknown>)[name];
    if (value !== undefined) checkHeaderValue(value, `${option}.${name}`);
  }
}

/** A non-negative number option. */
const checkAmount: Check = (value, option) => {
  if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value))
    fail(option, 'must be a finite number ≥ 0');
};

/** A count: a whole {@link checkAmount}. */
const checkCount: Check = (value, option) => {
  checkAmount(value, option);
  if (!Number.isInteger(value)) fail(option, 'must be an integer');
};

/** The per-attempt and per-answer limits, which a call may set over the client's. */
const LIMITS = {
  maxRetries: checkCount,
  /** 0, or more than a timer can hold (2³¹−1 ms, which timers treat as 1 ms), would fail every request at once. */
  timeout: (value, option) => {
    checkAmount(value, option);
    if (value === 0 || (value as number) > 2 ** 31 - 1) fail(option, 'must be between 1 and 2147483647 ms');
  },
  maxRetryAfter: checkAmount,
  maxResponseBytes: checkCount,
  totalTimeout: (value, option) => {
    checkAmount(value, option);
    if (value === 0 || (value as number) > 2 ** 31 - 1) fail(option, 'must be between 1 and 2147483647 ms');
  },
} satisfies Record<string, Check>;

const anything: Check = () => {};

// Every key of each options type, with the check of its value, exhaustive by the compiler: an unknown
// key (a typo such as `retries` or `baseURL`, from JavaScript or a spread object) is refused instead
// of silently ignored.
const CLIENT_OPTIONS: Record<keyof ClientOptions, Check> = {
  baseUrl: checkUrl,
  baseUrlV1: checkUrl,
  clientId: checkString,
  clientSecret: checkString,
  // An empty scope (an unset environment variable) would get a token that every call is refused with.
  scope: (scope, option) => {
    if (
      !(typeof scope === 'string'
        ? scope.trim()
        : Array.isArray(scope) && scope.every((s) => typeof s === 'string') && scope.join('').trim())
    )
      fail(option, 'must name a scope (a string or array of strings)');
  },
  accessToken: (token, option) => {
    if (typeof token !== 'function') checkBearer(token, option);
  },
  apiKey: checkBearer,
  ...LIMITS,
  fetch: (fetch, option) => {
    if (typeof fetch !== 'function') fail(option, 'must be a function');
  },
  defaultHeaders: validateHeaders,
  dangerouslyAllowBrowser: anything,
  clock: anything,
  rateLimit: (value, option) => {
    const rate = (value as { requestsPerMinute?: unknown } | null)?.requestsPerMinute;
    if (
      value !== false &&
      !(typeof value === 'string' && Object.hasOwn(PLANS, value)) &&
      !(typeof value === 'object' && typeof rate === 'number' && Number.isInteger(rate) && rate >= 1)
    )
      fail(
        option,
        `must be 'starter', 'pro', 'enterprise', { requestsPerMinute: <whole number ≥ 1> } or false`,
      );
  },
  sharedState: (state, option) => {
    if (
      !isObject(state) ||
      typeof (state as Partial<Record<keyof SharedState, unknown>>).reserve !== 'function'
    )
      fail(option, 'must implement SharedState (e.g. redisState from telephony-sdk/redis)');
  },
  account: (account) => {
    if (typeof account !== 'string' || !account.trim()) failAccount();
  },
  tracer: (tracer, option) => {
    if (typeof (tracer as { startSpan?: unknown } | null)?.startSpan !== 'function')
      fail(option, 'must be an OpenTelemetry Tracer');
  },
  logger: (logger, option) => {
    const methods = logger as Partial<Record<keyof Logger, unknown>> | null;
    if (
      !isObject(methods) ||
      !(['debug', 'info', 'warn', 'error'] as const).every((m) => typeof methods[m] === 'function')
    )
      fail(option, 'must have debug, info, warn and error methods (console, pino, winston)');
  },
  logLevel: (level, option) => {
    if (!isLogLevel(level)) fail(option, `must be one of ${LOG_LEVELS.join(', ')}`);
  },
  middleware: (chain, option) => {
    if (!Array.isArray(chain) || !chain.every((m) => typeof m === 'function'))
      fail(option, 'must be an array of functions (request, next, context) => Promise<Response>');
  },
};
const REQUEST_OPTIONS: Record<keyof RequestOptions, Check> = {
  signal: (signal, option) => {
    if (!(signal instanceof AbortSignal)) fail(option, 'must be an AbortSignal');
  },
  ...LIMITS,
  headers: validateHeaders,
  // Their keys and values are checked where they are merged, against the call's typed params.
  extraQuery: anything,
  extraBody: anything,
};

// With a sharedState, never a constant nor a credential's fingerprint: either would merge or split
// accounts behind the user's back.
function failAccount(): never {
  fail('account', 'must name the account (with sharedState: account or clientId)');
}

/** Refuses an unknown key, then checks each option that is set. */
function checkOptions(options: unknown, known: Record<string, Check>): void {
  if (!isObject(options)) fail('options', 'must be an object');
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(known, key)) continue;
    const names = Object.keys(known);
    const near = names.find((name) => name.toLowerCase() === key.toLowerCase());
    fail(
      key,
      `unknown option${near === undefined ? '' : ` (did you mean ${near}?)`}; known: ${names.join(', ')}`,
    );
  }
  // No array made for a call's options: checked on every call that passes some.
  for (const name in known) {
    const value = (options as Record<string, unknown>)[name];
    if (value !== undefined) known[name]?.(value, name);
  }
}

/** Validates the per-call options before anything is sent; the message names the option. */
export function validateRequestOptions(options: RequestOptions | undefined): void {
  if (options !== undefined) checkOptions(options, REQUEST_OPTIONS);
}

/** Validates the client options once, at construction; the message names the option (never its value). */
export function validateOptions(options: ClientOptions): void {
  checkOptions(options, CLIENT_OPTIONS);
  if ((options.clientId === undefined) !== (options.clientSecret === undefined)) {
    fail(
      options.clientId === undefined ? 'clientId' : 'clientSecret',
      'clientId and clientSecret go together',
    );
  }
  if (options.account === undefined && options.sharedState !== undefined && !options.clientId) failAccount();
}

/** True in a real browser page (a window with a document), not in Node, Deno, Bun or workers. */
export function isBrowser(): boolean {
  const g = globalThis as { window?: { document?: unknown }; document?: unknown };
  return isObject(g.window) && isObject(g.document);
}

/**
 * The client's options as every part reads them: checked, defaulted and put in the form they are
 * used in, once, at construction. Nothing past `TelephonyClient`'s constructor reads `ClientOptions`.
 */
export interface ResolvedOptions {
  baseUrl: string | undefined;
  baseUrlV1: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Space-separated, as the token request sends it. */
  scope: string | undefined;
  accessToken: string | (() => Promise<string>) | undefined;
  apiKey: string | undefined;
  maxRetries: number;
  timeout: number;
  /** `maxRetryAfter` in milliseconds: also the longest a 429 of this client may pause the account. */
  maxRetryAfterMs: number;
  maxResponseBytes: number;
  fetch: typeof fetch | undefined;
  /** Lower-case names; never `authorization`. */
  defaultHeaders: Record<string, string>;
  /** The `rateLimit` budget; `undefined` without pacing. */
  budget: RateBudget | undefined;
  sharedState: SharedState | undefined;
  /** Whose budget, pauses and token the state's keys are: `account`, else `clientId`, else `'local'`. */
  account: string;
  tracer: Tracer | undefined;
  clock: Clock;
  logger: Logger | undefined;
  logLevel: LogLevel | undefined;
  middleware: readonly Middleware[];
  totalTimeout: number | undefined;
}

/** Checks `options` (a {@link ValidationError} naming the option) and resolves them once. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  validateOptions(options);
  if (
    (options.clientSecret !== undefined || options.apiKey !== undefined) &&
    !options.dangerouslyAllowBrowser &&
    isBrowser()
  ) {
    throw new ValidationError(
      'clientSecret and apiKey in a browser are readable by every visitor: use accessToken (tokens a ' +
        'backend hands out), or set dangerouslyAllowBrowser: true',
      [{ path: 'dangerouslyAllowBrowser', message: 'secret credential in a browser' }],
    );
  }
  const { scope } = options;
  return {
    baseUrl: options.baseUrl,
    baseUrlV1: options.baseUrlV1,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scope: Array.isArray(scope) ? scope.join(' ') : scope,
    accessToken: options.accessToken,
    apiKey: options.apiKey,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    timeout: options.timeout ?? DEFAULTS.timeout,
    maxRetryAfterMs: (options.maxRetryAfter ?? DEFAULTS.maxRetryAfter) * 1000,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    fetch: options.fetch,
    defaultHeaders: mergeHeaders({}, options.defaultHeaders),
    budget: budgetOf(options.rateLimit),
    sharedState: options.sharedState,
    account: options.account ?? options.clientId ?? 'local',
    tracer: options.tracer,
    clock: options.clock ?? systemClock,
    logger: options.logger,
    logLevel: options.logLevel,
    // A copy: a chain changed after construction would change calls in flight.
    middleware: [...(options.middleware ?? [])],
    totalTimeout: options.totalTimeout,
  };
}
