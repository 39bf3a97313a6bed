/** What only some clients need, loaded together through load.ts: pacing and shared state, and the client-credentials flow. */
export { clientCredentials } from './auth/client-credentials.js';
export { sharedParts } from './pacing/pacer.js';
