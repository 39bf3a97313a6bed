import type { Clock } from '../core/clock.js';
import { ActivityFeed } from './activity.js';
import { detailForm } from './call-forms.js';
import { CallStore } from './calls.js';
import { pairedClientClock } from './client-clock.js';
import { type ClockOptions, type SandboxClock, Scheduler } from './clock.js';
import { CONSOLE_PATH, withConsole } from './console/server.js';
import type { ConsoleWorld } from './console/world.js';
import { type CorsOption, withCors } from './cors.js';
import {
  Credentials,
  DEFAULT_API_KEY,
  DEFAULT_CALLBACK_SECRET,
  DEFAULT_CLIENT,
  type SandboxApiKey,
  type SandboxClient,
} from './credentials.js';
import { Deliverer, type Delivery } from './delivery.js';
import { withDeliveryTimeout } from './delivery-timeout.js';
import { type DeprecationOption, withDeprecation } from './deprecation.js';
import { CallNotifier } from './events.js';
import { type ActiveFault, type FaultHandle, type FaultInit, Faults } from './faults.js';
import { type MswHttp, type MswMount, mswHandlers } from './msw.js';
import { type ListeningSandbox, listenOnLoopback } from './node-server.js';
import { RateLimiter, type RateUsage } from './rate-limit.js';
import { recordCall, recordDelivery, recordedRoute } from './recording.js';
import type { World } from './router.js';
import { Users } from './users.js';
import { customData } from './validate.js';
import { type StoredWebhook, Webhooks } from './webhooks.js';

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** OAuth applications. Default: one admin starter-plan client, see `sandbox.credentials`. */
  clients?: SandboxClient[];
  /** v1 API keys. Default: one key with users:read and users:write. */
  apiKeys?: SandboxApiKey[];
  /** Manual (default, for tests) or real-time clock (CLI, demo). */
  clock?: ClockOptions;
  /** The account's number: the default and only valid `from` of POST /v2/calls. Default +15550100000. */
  accountNumber?: string;
  /** Secret that signs callback_url notifications (they have no webhook secret). Default 'sandbox_callback_secret'. */
  callbackSecret?: string;
  /** fetch used to deliver webhooks. Default globalThis.fetch, read at each delivery. */
  deliveryFetch?: typeof fetch;
  /**
   * Wall-clock ms a delivery attempt waits for the receiver's answer; past it the attempt counts
   * as unanswered (status null) and is re-delivered on the usual schedule. Default 10 000.
   */
  deliveryTimeout?: number;
  /**
   * `Deprecation` and `Sunset` headers to send on every answer of a version's paths, as given, e.g.
   * `{ v1: { deprecation: '@1703980800', sunset: 'Wed, 31 Dec 2025 23:59:59 GMT' } }`. Default none.
   */
  deprecation?: DeprecationOption;
}

/** An incoming call for {@link Sandbox.simulateIncomingCall}. */
export interface IncomingCallInit {
  /** The caller's number, E.164 (`from.number`). */
  from: string;
  /** The caller's name (`from.name`). Default `''`. */
  fromName?: string;
  /** Default the account number. */
  to?: string;
  /** Name of the called line (`to.name`). Default `''`. */
  toName?: string;
  /** The user the call rings for (`to.user_id`). */
  userId?: string;
  /** The caller's contact (`from.contact_id`). */
  contactId?: string;
  /** The call's `custom_data`. Default `{}`. */
  customData?: Record<string, unknown>;
}

type CallDetail = ReturnType<typeof detailForm>;

/** A stateful, in-memory telephony service. */
export interface Sandbox {
  /** fetch-compatible: pass it as the client's `fetch`; the URL's host is ignored. */
  // `string | URL | Request`, not the DOM-only `RequestInfo`: the declarations compile without lib DOM.
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * Serves the sandbox over HTTP on 127.0.0.1 (port 0: any free port). `cors: true` answers
   * preflights and lets pages served from `localhost`, `127.0.0.1` or `[::1]` (any port) call it,
   * for browser code using an `accessToken`; a string or a list names the origins allowed instead
   * (`['https://app.example']`). A request from any other page's origin is 403. Off by default. `console: true` also serves the console, a page
   * that shows calls, deliveries and requests live and drives the sandbox, at `consoleUrl`
   * (`/_console/`); off by default.
   */
  listen(options?: { port?: number; cors?: CorsOption; console?: boolean }): Promise<ListeningSandbox>;
  /** msw handlers for `baseUrl`/v2/* and `baseUrlV1`/v1/*; pass msw's `http`. */
  mswHandlers<Handler>(http: MswHttp<Handler>, mount: MswMount): Handler[];
  /** The sandbox clock. */
  clock: SandboxClock;
  /**
   * Pass as the client's `clock` option: its waits (backoff, Retry-After, 429 pauses, `rateLimit`
   * pacing) then move a manual sandbox clock at once instead of sleeping; a real-time sandbox's
   * client sleeps for real. `now()` is sandbox time either way.
   */
  clientClock: Clock;
  /** Moves time forward, runs due transitions and re-deliveries, and waits for deliveries in flight. */
  advance(ms: number): Promise<void>;
  /** Resolves once no webhook delivery is in flight. */
  idle(): Promise<void>;
  /** Ready credentials of the first client and API key (the defaults unless `clients`/`apiKeys` were given). */
  credentials: {
    /** Pass as the client's `clientId` option. */
    clientId: string;
    /** Pass as the client's `clientSecret` option. */
    clientSecret: string;
    /** Pass as the client's `apiKey` option (v1). */
    apiKey: string;
  };
  /** The webhook and callback delivery attempts so far, oldest first: the latest 10 000. */
  readonly deliveries: readonly Delivery[];
  /** Registered webhooks, secrets included. */
  readonly webhooks: readonly StoredWebhook[];
  /** An inbound call arrives `ringing` and `call.incoming` is sent. */
  simulateIncomingCall(init: IncomingCallInit): CallDetail;
  /** A ringing call is answered (`call.answered`). */
  answerCall(callId: string): CallDetail;
  /** A ringing call is not answered (`call.missed`). */
  missCall(callId: string): CallDetail;
  /** A ringing call goes to voicemail: status `voicemail`, events `call.missed` and `voicemail.new` (`data.call`). */
  voicemailCall(callId: string): CallDetail;
  /**
   * Rate-limit usage per principal since the sandbox was created: one entry per configured OAuth
   * application (v2: all its tokens, SDK clients and processes together) and per API key (v1, a
   * budget of its own), applications first. Each gives the requests counted, those answered 429,
   * the largest number counted in any 60-second window of sandbox time (exact) and the plan's
   * limit. A fresh snapshot at each call. The token endpoint is not counted (see `tokensIssued`).
   *
   * @example
   * ```ts
   * const usage = sandbox.rateReport().find((u) => u.version === 'v2' && u.id === clientId);
   * expect(usage).toMatchObject({ rejected: 0 });
   * expect(usage?.maxInWindow).toBeLessThanOrEqual(usage?.limit ?? 0);
   * ```
   */
  rateReport(): RateUsage[];
  /**
   * Makes matching requests fail as `init.kind` says (over `fetch`, `mswHandlers` and `listen()`
   * alike) until the handle's `clear()`, {@link Sandbox.clearFaults} or `init.times` hits. Faults are
   * tried in the order injected; the first that matches hits. A lost connection is fetch's
   * `TypeError` over `fetch` and msw, a destroyed socket over `listen()`. Throws a `SandboxError`
   * naming the field on bad input.
   *
   * @example
   * ```ts
   * sandbox.injectFault({ method: 'POST', path: '/v2/calls', kind: 'drop_after', times: 1 });
   * ```
   */
  injectFault(init: FaultInit): FaultHandle;
  /** Removes every fault in force. */
  clearFaults(): void;
  /** The faults in force, in the order injected, with their hit counts: a fresh snapshot at each read. */
  readonly faults: readonly ActiveFault[];
  /** Stops the real-time ticker. Servers from listen() are closed with their own close(). */
  close(): void;
}

/**
 * Creates a sandbox: a faithful, stateful local implementation of the service of SPEC.md (OAuth,
 * v2 calls, stats and webhooks, v1 users, errors, rate limits, signed webhook deliveries). Time is
 * manual by default: move it with `advance(ms)`.
 *
 * @example
 * ```ts
 * import { TelephonyClient } from 'telephony-sdk';
 * import { createSandbox } from 'telephony-sdk/testing';
 *
 * const sandbox = createSandbox();
 * const client = new TelephonyClient({
 *   baseUrl: 'https://sandbox.test', // any host: sandbox.fetch ignores it
 *   baseUrlV1: 'https://sandbox.test',
 *   ...sandbox.credentials,
 *   fetch: sandbox.fetch,
 * });
 *
 * const created = await client.calls.create({ to: '+14155550123' });
 * await sandbox.advance(5_000); // initiating → ringing → answered
 * expect((await client.calls.get(created.id)).status).toBe('answered');
 *
 * const incoming = sandbox.simulateIncomingCall({ from: '+14155550199' });
 * sandbox.answerCall(incoming.id);
 * ```
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = new Scheduler(options.clock);
  const isoNow = () => new Date(clock.now()).toISOString();
  const clients = options.clients ?? [
    { clientId: DEFAULT_CLIENT.clientId, clientSecret: DEFAULT_CLIENT.clientSecret },
  ];
  const apiKeys = options.apiKeys ?? [{ key: DEFAULT_API_KEY.key }];
  const activity = new ActivityFeed();
  const deliverer = new Deliverer(
    clock,
    withDeliveryTimeout(
      (input, init) => (options.deliveryFetch ?? globalThis.fetch)(input, init),
      options.deliveryTimeout,
    ),
    recordDelivery(activity),
  );
  clock.settleWith(() => deliverer.idle());
  const webhooks = new Webhooks(isoNow);
  const notifier: CallNotifier = new CallNotifier(
    clock,
    webhooks,
    deliverer,
    options.callbackSecret ?? DEFAULT_CALLBACK_SECRET,
    (): CallStore => calls,
  );
  const calls: CallStore = new CallStore(clock, (call, previous, firstAnswer) => {
    recordCall(activity, clock.now(), call, previous);
    notifier.onStatus(call, previous, firstAnswer);
  });
  const accountNumber = options.accountNumber ?? '+15550100000';
  const world: World = {
    now: () => clock.now(),
    credentials: new Credentials(clients, apiKeys),
    rateLimiter: new RateLimiter(clients, apiKeys),
    calls,
    users: new Users(isoNow),
    webhooks,
    accountNumber,
  };
  const faults = new Faults();
  const handle = withDeprecation(recordedRoute(world, activity, apiKeys, faults, clock), options.deprecation);
  const detail = (callId: string) => {
    const call = calls.get(callId);
    return detailForm(call, calls.duration(call));
  };
  const advance = async (ms: number) => {
    await clock.advance(ms);
    await deliverer.idle();
  };
  const sandboxClock: SandboxClock = { now: () => clock.now(), advance };
  const consoleWorld: ConsoleWorld = {
    ...{ activity, calls, deliverer, webhooks, notifier, clock, advance, accountNumber, faults },
    manualClock: options.clock?.mode !== 'realtime',
    simulateIncomingCall: (init) => sandbox.simulateIncomingCall(init),
    rateReport: () => world.rateLimiter.report(),
  };

  const sandbox: Sandbox = {
    fetch: async (input, init) => {
      const response = await handle(
        input instanceof Request && init === undefined ? input : new Request(input, init),
      );
      // What fetch does when the connection is lost: an injected drop looks the same.
      if (response.type === 'error') {
        throw new TypeError('fetch failed', {
          cause: new Error('The sandbox closed the connection (a fault)'),
        });
      }
      return response;
    },
    listen: async ({ port, cors, console: served = false } = {}) => {
      if (!served) return listenOnLoopback(withCors(handle, cors), port);
      const server = await listenOnLoopback(withConsole(consoleWorld, withCors(handle, cors)), port);
      return { ...server, consoleUrl: `${server.url}${CONSOLE_PATH}/` };
    },
    mswHandlers: (http, mount) => mswHandlers(http, mount, handle),
    clock: sandboxClock,
    clientClock: pairedClientClock(sandboxClock, options.clock?.mode),
    advance,
    idle: () => deliverer.idle(),
    credentials: {
      clientId: clients[0]?.clientId ?? DEFAULT_CLIENT.clientId,
      clientSecret: clients[0]?.clientSecret ?? DEFAULT_CLIENT.clientSecret,
      apiKey: apiKeys[0]?.key ?? DEFAULT_API_KEY.key,
    },
    deliveries: deliverer.deliveries,
    webhooks: webhooks.registered,
    simulateIncomingCall: (init) =>
      detail(
        calls.add({
          direction: 'inbound',
          from: { number: init.from, name: init.fromName ?? '', contact_id: init.contactId ?? null },
          to: { number: init.to ?? accountNumber, name: init.toName ?? '', user_id: init.userId ?? null },
          status: 'ringing',
          record: false,
          notes: '',
          tags: [],
          queue: { id: 'queue_main', name: 'Main', wait_time: 0 },
          customData: customData(init.customData ?? {}, 'customData'),
          callbackUrl: null,
          userId: init.userId ?? null,
        }).id,
      ),
    answerCall: (callId) => detail(calls.settleRinging(callId, 'answered').id),
    missCall: (callId) => detail(calls.settleRinging(callId, 'missed').id),
    voicemailCall: (callId) => detail(calls.settleRinging(callId, 'voicemail').id),
    rateReport: consoleWorld.rateReport,
    injectFault: (init) => faults.inject(init),
    clearFaults: () => faults.clearAll(),
    get faults() {
      return faults.list();
    },
    close: () => clock.stop(),
  };
  consoleWorlds.set(sandbox, consoleWorld);
  return sandbox;
}

const consoleWorlds = new WeakMap<Sandbox, ConsoleWorld>();

/** What the console of `sandbox` reads and drives, its activity feed included (the CLI logs it). */
export function consoleWorldOf(sandbox: Sandbox): ConsoleWorld {
  const world = consoleWorlds.get(sandbox);
  if (!world) throw new TypeError('Not a sandbox made by createSandbox');
  return world;
}
