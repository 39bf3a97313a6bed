import type { RawRequest, RequestOptions, Transport } from '../types.js';

/** A call's result with the HTTP answer it came in: `.withResponse()`'s value. */
export interface WithResponse<T> {
  /** What the promise resolves to. */
  data: T;
  /**
   * The last attempt's answer: status and headers. Its body is already read, except for a download
   * (`calls.downloadRecording`), where `response` is `data` itself, its body still unread.
   */
  response: Response;
  /** The id the SDK gave the call that answered: the same as in its events, log lines, spans and errors. */
  requestId: string;
}

/**
 * The promise every method returns: a `Promise<T>`, and `.withResponse()` for the HTTP answer too
 * (a header of a successful answer, its status), as openai-node has it.
 *
 * @example
 * ```ts
 * const { data: call, response, requestId } = await client.calls.get('call_123').withResponse();
 * response.headers.get('x-request-id');
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  readonly #answer: Promise<WithResponse<T>>;

  constructor(answer: Promise<WithResponse<T>>) {
    // Settled at once and never read: every reader goes through `then`, which reads `answer`.
    super((resolve) => resolve(undefined as T));
    this.#answer = answer;
  }

  /** `Promise`: promises derived with `then`/`catch`/`finally` are plain promises. */
  static override get [Symbol.species]() {
    return Promise;
  }

  // `catch` and `finally` are Promise's own: both call `then`, so they reach the answer too.
  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a promise by design (API.md).
  override then<A = T, B = never>(
    onFulfilled?: ((data: T) => A | PromiseLike<A>) | null,
    // Promise's own signature: with `unknown`, a rejection handler that every Promise takes
    // (`(error: MyError) => …`) would stop compiling where a method's promise used to be plain.
    // biome-ignore lint/suspicious/noExplicitAny: as `Promise.prototype.then` declares it.
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#answer.then(
      onFulfilled ? ({ data }) => onFulfilled(data) : ({ data }) => data as unknown as A,
      onRejected,
    );
  }

  /** The result, the last attempt's `Response` (status, headers; its body already read) and the call's `requestId`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#answer;
  }
}

/** `answer` with its data turned by `turn` (the same response), as an {@link APIPromise}. */
export function mapAnswer<T, U>(answer: Promise<WithResponse<T>>, turn: (data: T) => U): APIPromise<U> {
  return new APIPromise(answer.then((answered) => ({ ...answered, data: turn(answered.data) })));
}

/**
 * A transport that checks a 2xx body within the call (the client's): a check that throws fails that
 * call, as an answer it cannot read would, so the error carries the call's `attempts` and `requestId`.
 */
export interface CheckingTransport extends Transport {
  sendChecked<R>(
    request: RawRequest,
    options: RequestOptions | undefined,
    check: (body: unknown) => R,
  ): APIPromise<R>;
}

/**
 * `request` sent and its answer's body checked by `check` (unwrap, schema): within the call on the
 * client's transport; after `send` on any other (a custom resource's own), whose calls have no ids.
 */
export function sendChecked<R>(
  transport: Transport,
  request: RawRequest,
  options: RequestOptions | undefined,
  check: (body: unknown) => R,
): APIPromise<R> {
  return 'sendChecked' in transport
    ? (transport as CheckingTransport).sendChecked(request, options, check)
    : mapAnswer(transport.send(request, options).withResponse(), check);
}
