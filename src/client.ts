import { ClientEmitter, type ClientEvents, type ClientListener } from './core/events.js';
import { type ClientOptions, resolveOptions } from './core/options.js';
import type { APIPromise } from './core/response/api-promise.js';
import { traceMethods } from './core/tracing/trace-methods.js';
import { HttpTransport } from './core/transport/http.js';
import type { RequestOptions, RequestSpec, Transport } from './core/types.js';
import { Calls, LegacyCalls, Stats, Users, Webhooks } from './resources/index.js';

/**
 * Client of the telephony service. Credentials stay in private fields: they never appear in
 * errors, events, `util.inspect(client)` or `JSON.stringify(client)`.
 *
 * Methods return the unwrapped payload (not the `{status, data}` envelope) and reject with a
 * {@link TelephonyError} subclass. Each attempt times out after `timeout` ms (default 60 000); failed
 * attempts are retried up to `maxRetries` times (default 2) with jittered backoff, or after the
 * `Retry-After` the service sent (up to `maxRetryAfter` s, default 60).
 *
 * Events: `'request'`, `'response'`, `'retry'`, `'token'` (see {@link ClientEvents}), through
 * `on`, `once` and `off`. A listener cannot break a call: one that throws or rejects is ignored.
 */
export class TelephonyClient {
  readonly #transport: HttpTransport;
  readonly #events = new ClientEmitter();
  /** v2 calls: list, get, create, end, transfer. */
  readonly calls: Calls;
  /** v2 call statistics. */
  readonly stats: Stats;
  /** v2 webhook registration. */
  readonly webhooks: Webhooks;
  /** v1 users (API key). */
  readonly users: Users;
  /** v1 calls list, in SPEC.md's short form (API key). */
  readonly legacyCalls: LegacyCalls;

  /**
   * @throws {ValidationError} when an option is invalid (a non-http(s) base URL, `clientId` without
   *   `clientSecret`, a negative `timeout` …), or when `clientSecret`/`apiKey` is used in a browser
   *   without `dangerouslyAllowBrowser`.
   *
   * @example
   * ```ts
   * import { TelephonyClient } from 'telephony-sdk';
   *
   * const client = new TelephonyClient({
   *   baseUrl: 'https://api.example.com', // v2: calls, stats, webhooks
   *   clientId: process.env.TELEPHONY_CLIENT_ID,
   *   clientSecret: process.env.TELEPHONY_CLIENT_SECRET,
   *   baseUrlV1: 'https://legacy.example.com', // v1: users
   *   apiKey: process.env.TELEPHONY_API_KEY,
   *   timeout: 30_000, // ms per attempt (default 60 000)
   *   maxRetries: 3, // default 2
   * });
   * const call = await client.calls.get('call_123');
   * ```
   */
  constructor(options: ClientOptions = {}) {
    const resolved = resolveOptions(options);
    this.#transport = new HttpTransport(resolved, this.#events);
    this.calls = new Calls(this.#transport, resolved.clock);
    this.stats = new Stats(this.#transport);
    this.webhooks = new Webhooks(this.#transport);
    this.users = new Users(this.#transport);
    this.legacyCalls = new LegacyCalls(this.#transport);
    const { tracer } = resolved;
    if (tracer !== undefined) {
      // Each method a traced operation, named as called: `calls.create`, `request`.
      for (const name of ['calls', 'stats', 'webhooks', 'users', 'legacyCalls'] as const)
        traceMethods(this[name], this.#transport, tracer, `${name}.`);
      traceMethods(this, this.#transport, tracer, '', ['request']);
    }
  }

  /**
   * Calls `listener` with each event `name` until `off`. Listeners observe: one that throws, or returns a
   * promise that rejects, is ignored and cannot fail the call, stop other listeners or lose a token.
   *
   * @example
   * ```ts
   * client.on('retry', ({ method, url, attempt, delayMs, reason }) =>
   *   console.warn(`${method} ${url}: attempt ${attempt} failed (${reason}), retrying in ${delayMs} ms`));
   * ```
   */
  on<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): this {
    this.#events.on(name, listener);
    return this;
  }

  /** Like `on`, for the next event `name` only. */
  once<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): this {
    this.#events.once(name, listener);
    return this;
  }

  /** Removes `listener` from event `name` (every listener of `name` when none is given). */
  off<Name extends keyof ClientEvents>(name: Name, listener?: ClientListener<Name>): this {
    this.#events.off(name, listener);
    return this;
  }

  /**
   * Escape hatch: any `/v2/` or `/v1/` path with the same auth, retries, errors and events as the
   * resource methods. Resolves to the parsed JSON body (the whole envelope, not unwrapped).
   */
  request(spec: RequestSpec, options?: RequestOptions): APIPromise<unknown> {
    // `this.transport`: a traced `request` runs on a view whose transport is bound to its span.
    return this.transport.send(spec, options);
  }

  /** The transport for resource classes and `download` of recordings (`recording_url`). */
  get transport(): Transport {
    return this.#transport;
  }

  /** `{}`: `JSON.stringify(client)` never serializes credentials or state. */
  toJSON(): Record<string, never> {
    return {};
  }
}
