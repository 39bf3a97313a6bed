import type { Tracer } from '../../shared/tracer.js';
import { loadTracing, tracingNow } from '../load.js';
import { type Page, PagePromise } from '../response/page.js';
import { type TracedCall, TracedTransport, type TracingTransport } from './traced-call.js';

type Method = (...args: unknown[]) => PromiseLike<unknown>;

/**
 * Makes each method of `target`'s class (or the ones `names` lists) a traced call named `prefix` +
 * the method's name (`calls.` + `create`): a span from the call until its promise settles (spans.ts).
 * The method runs on a view of `target` whose `transport` is `transport` bound to that call, so each
 * request it makes, before or after an `await`, is an attempt of that call and no other.
 */
export function traceMethods(
  target: object,
  transport: TracingTransport,
  tracer: Tracer,
  prefix: string,
  names = Object.getOwnPropertyNames(Object.getPrototypeOf(target)),
): void {
  const methods = target as Record<string, Method>;
  for (const name of names) {
    const method = methods[name] as Method;
    if (name !== 'constructor')
      methods[name] = (...args) => {
        const call = () => method.apply(target, args);
        const callAs = (traced: TracedCall) =>
          method.apply(
            Object.create(target, { transport: { value: new TracedTransport(transport, traced) } }),
            args,
          );
        const run = (spans: ReturnType<typeof tracingNow> & object) =>
          spans.traced(tracer, prefix + name, callAs);
        const spans = tracingNow();
        // Until a browser has loaded the tracing code, a call waits for it (and runs untraced if it
        // cannot load); a PagePromise, so that a list's result stays iterable (any other method's
        // result is awaited, never iterated).
        return spans ? run(spans) : new PagePromise(loadTracing().then(run, call) as Promise<Page<unknown>>);
      };
  }
}
