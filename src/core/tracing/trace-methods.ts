import type { Tracer } from '../../shared/tracer.js';
import { loadTracing, tracingNow } from '../load.js';
import { APIPromise, type WithResponse } from '../response/api-promise.js';
import { type Page, PagePromise } from '../response/page.js';
import { runAs } from './current.js';

type Method = (...args: unknown[]) => PromiseLike<unknown>;

/**
 * A method's result as `.withResponse()` gives it; a recording's download resolves to the `Response`
 * itself, which is its own answer.
 */
const answerOf = (result: PromiseLike<unknown>): PromiseLike<WithResponse<Page<unknown>>> =>
  result instanceof APIPromise
    ? result.withResponse()
    : result.then((response) => ({ data: response as Page<unknown>, response: response as Response }));

/**
 * Makes each method of `target`'s class (or the ones `names` lists) an operation named `prefix` + the
 * method's name (`calls.` + `create`): a span from the call until its promise settles (spans.ts).
 */
export function traceMethods(
  target: object,
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
        const run = (spans: ReturnType<typeof tracingNow> & object) =>
          spans.traced(tracer, prefix + name, call, runAs);
        const spans = tracingNow();
        // Until a browser has loaded the tracing code, a call waits for it (and runs untraced if it
        // cannot load); a PagePromise, so that a list's result stays iterable (any other method's
        // result is awaited, never iterated).
        return spans
          ? run(spans)
          : new PagePromise(
              loadTracing().then(
                (loaded) => answerOf(run(loaded)),
                () => answerOf(call()),
              ),
            );
      };
  }
}
