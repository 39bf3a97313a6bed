/** load.ts for the browser build: shared.ts and error-from-response.ts are chunks of their own, fetched on first use. */
export const loadShared = () => import('./shared.js');
export const loadErrorMapping = () => import('./response/error-from-response.js');
