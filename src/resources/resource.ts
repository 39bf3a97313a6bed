import { type Transport, withTransport } from '../core/types.js';

/** Base of the resource classes: holds the transport that performs their requests. */
export abstract class APIResource {
  /** Performs this resource's requests with the client's auth, retries, errors and events. */
  protected readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** This resource sending through `transport`; a subclass with more constructor arguments overrides it. */
  [withTransport](transport: Transport): this {
    return new (this.constructor as new (transport: Transport) => this)(transport);
  }
}
