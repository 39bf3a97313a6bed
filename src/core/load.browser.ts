/** load.ts for the browser build: shared.ts is a chunk of its own, fetched on first use. */
export const loadShared = () => import('./shared.js');
