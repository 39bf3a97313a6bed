/**
 * Where the transport gets the code that only some clients or calls need: pacing and shared state,
 * and the client-credentials flow (shared.ts); the spans of a client given a tracer (tracing/spans.ts). On Node (and under test)
 * they are part of the module graph, so a call never waits for code to load; the browser build
 * replaces this file by load.browser.ts, which loads each on first use, so a browser client with a
 * static token, no pacing and no tracer downloads none of them up front.
 */
import * as shared from './shared.js';
import * as spans from './tracing/spans.js';

export const loadShared = (): Promise<typeof shared> => Promise.resolve(shared);
/** The tracing code, at hand at once here: a call made right after the client's construction is traced. */
export const tracingNow = (): typeof spans | undefined => spans;
export const loadTracing = (): Promise<typeof spans> => Promise.resolve(spans);
