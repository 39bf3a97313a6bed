import { EventEmitter } from 'eventemitter3';

/** A handler as the registry keeps it: the receiver's public methods type it per event name. */
type Fn = EventEmitter.ListenerFn;

/**
 * One registration as eventemitter3 keeps it — name, listener, context (the receiver when none was
 * given), once — then whether a running event holds it.
 */
export type Registration = [name: string, fn: Fn, context: unknown, once: boolean, taken?: boolean];

/**
 * The receiver's handler registry: eventemitter3, and beside it every registration with its context
 * and `once` flag. The receiver calls the handlers itself, to await what they return (`emit()` drops
 * it), and eventemitter3's public API gives the functions alone (`listeners()`). Every way to add or
 * remove a listener (`on`, `once`, `off`, `removeAllListeners`, and `emit` spending a `once`) updates
 * both, by eventemitter3's own rules. Held by the receiver, not its base class, so that the receiver's
 * public type is its own documented methods.
 */
export class Listeners {
  readonly #emitter = new EventEmitter();
  readonly #owner: object;
  #all: Registration[] = [];

  /** `owner`: the context of a listener registered without one (eventemitter3 uses the emitter). */
  constructor(owner: object) {
    this.#owner = owner;
  }

  on(name: string, fn: Fn, context: unknown, once: boolean): void {
    const registration: Registration = [name, fn, context || this.#owner, once];
    this.#all.push(registration);
    if (once) this.#emitter.once(name, fn, registration[2]);
    else this.#emitter.on(name, fn, registration[2]);
  }

  off(name: string, fn?: Fn, context?: unknown, once?: boolean): void {
    this.#all = this.#all.filter(
      ([n, f, c, o]) => n !== name || (fn && (f !== fn || (once && !o) || (context && c !== context))),
    );
    this.#emitter.removeListener(name, fn, context, once);
  }

  removeAll(name?: string): void {
    this.#all = name ? this.#all.filter(([n]) => n !== name) : [];
    this.#emitter.removeAllListeners(name);
  }

  listeners(name: string): Fn[] {
    return this.#emitter.listeners(name);
  }

  count(name: string): number {
    return this.#emitter.listenerCount(name);
  }

  names(): string[] {
    return this.#emitter.eventNames() as string[];
  }

  /** eventemitter3's `emit` (which spends a `once`), the registrations kept in step. */
  emit(name: string, args: unknown[]): boolean {
    const spent = this.#all.filter((r) => r[0] === name && r[3] && !r[4]);
    this.#all = this.#all.filter((r) => !spent.includes(r));
    return this.#emitter.emit(name, ...args);
  }

  /**
   * The registrations of `name` that no running event holds. Its `once` ones leave the emitter now,
   * so a concurrent event does not run them too: spent at once, or held until {@link Listeners.settle}.
   */
  take(name: string, spent?: boolean): Registration[] {
    const taken = this.#collect(name, []);
    if (spent) this.settle(taken, spent);
    return taken;
  }

  /**
   * What {@link Listeners.take} gives for an event of `type`: its type's registrations, then the
   * catch-all `'*'`'s. A type without a dot is never an event type, so a signed `type: 'handler_error'`
   * reaches only the catch-all. One list, with no intermediate arrays: it is taken on every delivery.
   */
  takeFor(type: string): Registration[] {
    const taken: Registration[] = [];
    if (type.includes('.')) this.#collect(type, taken);
    return this.#collect('*', taken);
  }

  #collect(name: string, into: Registration[]): Registration[] {
    for (const r of this.#all)
      if (r[0] === name && !r[4]) {
        into.push(r);
        if (r[3]) {
          r[4] = true;
          this.#emitter.removeListener(name, r[1], r[2], true);
        }
      }
    return into;
  }

  /**
   * Ends what {@link Listeners.take} held: a `once` listener is spent, or, when its event failed, put
   * back for the re-delivery, unless it was removed meanwhile (`off`, `removeAllListeners`).
   */
  settle(taken: Registration[], spent: boolean): void {
    for (const r of taken)
      if (r[4]) {
        r[4] = false;
        if (spent) this.#all = this.#all.filter((other) => other !== r);
        else if (this.#all.includes(r)) this.#emitter.once(r[0], r[1], r[2]);
      }
  }
}
