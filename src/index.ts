export * from './core/errors.js';
export type { HttpMethod, RawRequest, RequestOptions } from './core/transport.js';
