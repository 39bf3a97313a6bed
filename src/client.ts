import { EventEmitter } from 'eventemitter3';
import { type Clock, systemClock } from './core/clock.js';
import { ValidationError } from './core/errors.js';
import type { ClientEvents } from './core/events.js';
import { HttpTransport } from './core/http.js';
import { type ClientOptions, isBrowser, validateOptions } from './core/options.js';
import type { HttpMethod, QueryValue, RequestOptions, Transport } from './core/transport.js';
import { Calls, Stats, Users, Webhooks } from './resources/index.js';

/** A request to any documented path, for operations the SDK has no method for. */
export interface RequestSpec {
  method: HttpMethod;
  /** Starts with `/v2/` or `/v1/`: picks the address, the credential and the error shape. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string> | undefined;
}

/**
 * Client of the telephony service. Credentials stay in private fields: they never appear in
 * errors, events, `util.inspect(client)` or `JSON.stringify(client)`.
 *
 * Events: `'request'`, `'response'`, `'retry'`, `'token'` (see `ClientEvents`).
 */
export class TelephonyClient extends EventEmitter<ClientEvents> {
  readonly #transport: Transport;
  /** v2 calls: list, get, create, end, transfer. */
  readonly calls: Calls;
  /** v2 call statistics. */
  readonly stats: Stats;
  /** v2 webhook registration. */
  readonly webhooks: Webhooks;
  /** v1 users (API key). */
  readonly users: Users;

  constructor(options: ClientOptions = {}) {
    super();
    validateOptions(options);
    if (
      (options.clientSecret !== undefined || options.apiKey !== undefined) &&
      !options.dangerouslyAllowBrowser &&
      isBrowser()
    ) {
      throw new ValidationError(
        'clientSecret and apiKey must not be used in a browser, where every visitor can read them; ' +
          'hand out access tokens from a backend (accessToken option), or pass dangerouslyAllowBrowser: true',
        [{ path: 'dangerouslyAllowBrowser', message: 'secret credential in a browser' }],
      );
    }
    const clock: Clock = options.clock ?? systemClock;
    this.#transport = new HttpTransport(options, clock, this);
    this.calls = new Calls(this.#transport);
    this.stats = new Stats(this.#transport);
    this.webhooks = new Webhooks(this.#transport);
    this.users = new Users(this.#transport);
  }

  /**
   * Escape hatch: any `/v2/` or `/v1/` path with the same auth, retries, errors and events as the
   * resource methods. Resolves to the parsed JSON body (the whole envelope, not unwrapped).
   */
  request(spec: RequestSpec, options?: RequestOptions): Promise<unknown> {
    return this.#transport.send(spec, options);
  }

  /** The transport for resource classes and `download` of recordings (`recording_url`). */
  get transport(): Transport {
    return this.#transport;
  }

  toJSON(): Record<string, never> {
    return {};
  }
}
