/**
 * load.ts for the browser build: shared.ts and tracing/spans.ts are chunks of
 * their own, fetched on first use.
 */
export const loadShared = () => import('./shared.js');

let spans: typeof import('./tracing/spans.js') | undefined;
export const tracingNow = () => spans;
export const loadTracing = () => import('./tracing/spans.js').then((loaded) => (spans = loaded));
