import type { Tracer } from '../../shared/tracer.js';
import type { APIPromise, WithResponse } from '../response/api-promise.js';
import { type Page, PagePromise } from '../response/page.js';
import { withTransport } from '../types.js';
import { type TracedCall, TracedTransport, type TracingTransport } from './traced-call.js';

/** A resource method: every one returns an {@link APIPromise}. */
type Method = (...args: unknown[]) => APIPromise<unknown>;

/** A method's result as `.withResponse()` gives it, typed as a list's so a `PagePromise` can carry it. */
const answerOf = (result: APIPromise<unknown>) =>
  result.withResponse() as Promise<WithResponse<Page<unknown>>>;

/**
 * Makes each method of `target`'s class (or the ones `names` lists) a traced call named `prefix` +
 * the method's name (`calls.` + `create`): a span from the call until its promise settles (spans.ts).
 * The method runs on a copy (or view) of `target` whose `transport` is `transport` bound to that
 * call, so each request it makes, before or after an `await`, is an attempt of that call and no
 * other. The span code is loaded by `import()`, so a bundle splits it off what a client without a
 * tracer loads.
 */
export function traceMethods(
  target: object,
  transport: TracingTransport,
  tracer: Tracer,
  prefix: string,
  names = Object.getOwnPropertyNames(Object.getPrototypeOf(target)),
): void {
  let spans: typeof import('./spans.js') | undefined;
  const loading = import('./spans.js').then((loaded) => (spans = loaded));
  const methods = target as Record<string, Method>;
  const wrapped: Record<string, Method> = {};
  // `target` sending through `bound`: a resource's copy of itself (its `#private` members are a real
  // instance's), carrying the traced methods so a call one method makes of another is traced as its
  // own; any other target (the client's `request`), a view whose `transport` is `bound`.
  const boundTo = (bound: TracedTransport): object =>
    withTransport in target
      ? Object.assign(
          (target as { [withTransport](t: TracedTransport): object })[withTransport](bound),
          wrapped,
        )
      : Object.create(target, { transport: { value: bound } });
  for (const name of names) {
    const method = methods[name] as Method;
    if (name !== 'constructor')
      methods[name] = wrapped[name] = (...args) => {
        const call = () => method.apply(target, args);
        const callAs = (traced: TracedCall) =>
          method.apply(boundTo(new TracedTransport(transport, traced)), args);
        const run = (loaded: typeof import('./spans.js')) => loaded.traced(tracer, prefix + name, callAs);
        // Until the span code has loaded, a call waits for it (and runs untraced if it cannot
        // load); a PagePromise, so that a list's result stays iterable (any other method's result
        // is awaited, never iterated).
        return spans
          ? run(spans)
          : new PagePromise(
              loading.then(
                (loaded) => answerOf(run(loaded)),
                () => answerOf(call()),
              ),
            );
      };
  }
}
