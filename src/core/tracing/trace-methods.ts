import type { Tracer } from '../../shared/tracer.js';
import { APIPromise, type WithResponse } from '../response/api-promise.js';
import { type Page, PagePromise } from '../response/page.js';

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
 * The span code is loaded by `import()`, so a bundle splits it off what a client without a tracer
 * loads.
 */
export function traceMethods(
  target: object,
  tracer: Tracer,
  prefix: string,
  names = Object.getOwnPropertyNames(Object.getPrototypeOf(target)),
): void {
  let spans: typeof import('./spans.js') | undefined;
  const loading = import('./spans.js').then((loaded) => (spans = loaded));
  const methods = target as Record<string, Method>;
  for (const name of names) {
    const method = methods[name] as Method;
    if (name !== 'constructor')
      methods[name] = (...args) => {
        const call = () => method.apply(target, args);
        const run = (loaded: typeof import('./spans.js')) => loaded.traced(tracer, prefix + name, call);
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
