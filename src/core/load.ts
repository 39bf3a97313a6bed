/**
 * Where the transport gets the code that only some clients need (shared.ts): pacing and shared
 * state, and the client-credentials flow. On Node (and under test) it is part of the module graph,
 * so a call never waits for code to load; the browser build replaces this file by load.browser.ts,
 * which loads it on first use, so a browser client with a static token and no pacing does not
 * download it up front.
 */
import * as shared from './shared.js';

export const loadShared = (): Promise<typeof shared> => Promise.resolve(shared);
