/** load.ts for the browser build: each part is a chunk of its own, fetched on first use. */
export const loadPacer = () => import('./pacing/pacer.js');
export const loadClientCredentials = () => import('./auth/client-credentials.js');
