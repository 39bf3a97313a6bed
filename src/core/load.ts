/**
 * Where the transport gets the code that only some clients need: pacing and shared state
 * (pacing/pacer.ts) and the client-credentials flow (auth/client-credentials.ts). On Node (and
 * under test) it is part of the module graph, so a call never waits for code to load; the browser
 * build replaces this file by load.browser.ts, which loads them on first use, so a browser client
 * with a static token and no pacing does not download them up front.
 */
import * as clientCredentials from './auth/client-credentials.js';
import * as pacer from './pacing/pacer.js';

export const loadPacer = (): Promise<typeof pacer> => Promise.resolve(pacer);
export const loadClientCredentials = (): Promise<typeof clientCredentials> =>
  Promise.resolve(clientCredentials);
