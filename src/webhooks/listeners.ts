import { EventEmitter } from 'eventemitter3';
import type { WebhookReceiverEvents } from './receiver-events.js';

type Events = WebhookReceiverEvents;
type Name = EventEmitter.EventNames<Events>;
type Fn<T extends Name = Name> = EventEmitter.EventListener<Events, T>;

/**
 * One registration as eventemitter3 keeps it — name, listener, context (the emitter when none was
 * given), once — then whether a running event holds it.
 */
export type Registration = [name: Name, fn: Fn, context: unknown, once: boolean, taken?: boolean];

/**
 * eventemitter3, and beside it every registration with its context and `once` flag. The receiver
 * calls the handlers itself, to await what they return (`emit()` drops it), and eventemitter3's
 * public API gives the functions alone (`listeners()`). Every way to add or remove a listener
 * (`on`, `addListener`, `once`, `off`, `removeListener`, `removeAllListeners`, and `emit` spending a
 * `once`) updates both, by eventemitter3's own rules.
 */
export class Listeners extends EventEmitter<Events> {
  #all: Registration[] = [];

  override on<T extends Name>(name: T, fn: Fn<T>, context?: unknown): this {
    return this.#add([name, fn as Fn, context || this, false]);
  }

  /** Same as `on`. */
  override addListener<T extends Name>(name: T, fn: Fn<T>, context?: unknown): this {
    return this.on(name, fn, context);
  }

  override once<T extends Name>(name: T, fn: Fn<T>, context?: unknown): this {
    return this.#add([name, fn as Fn, context || this, true]);
  }

  override removeListener<T extends Name>(name: T, fn?: Fn<T>, context?: unknown, once?: boolean): this {
    this.#all = this.#all.filter(
      ([n, f, c, o]) => n !== name || (fn && (f !== fn || (once && !o) || (context && c !== context))),
    );
    return super.removeListener(name, fn, context, once);
  }

  /** Same as `removeListener`. */
  override off<T extends Name>(name: T, fn?: Fn<T>, context?: unknown, once?: boolean): this {
    return this.removeListener(name, fn, context, once);
  }

  override removeAllListeners(name?: Name): this {
    this.#all = name ? this.#all.filter(([n]) => n !== name) : [];
    return super.removeAllListeners(name);
  }

  /**
   * The registrations of `name` that no running event holds. Its `once` ones leave the emitter now,
   * so a concurrent event does not run them too: spent at once, or held until {@link Listeners.settle}.
   * @internal
   */
  protected take(name: Name, spent?: boolean): Registration[] {
    const taken = this.#all.filter((r) => r[0] === name && !r[4]);
    for (const r of taken)
      if (r[3]) {
        r[4] = true;
        super.removeListener(name, r[1], r[2], true);
      }
    if (spent) this.settle(taken, spent);
    return taken;
  }

  /**
   * Ends what {@link Listeners.take} held: a `once` listener is spent, or, when its event failed, put
   * back for the re-delivery, unless it was removed meanwhile (`off`, `removeAllListeners`).
   * @internal
   */
  protected settle(taken: Registration[], spent: boolean): void {
    for (const r of taken)
      if (r[4]) {
        r[4] = false;
        if (spent) this.#all = this.#all.filter((other) => other !== r);
        else if (this.#all.includes(r)) super.once(r[0], r[1], r[2]);
      }
  }

  #add(registration: Registration): this {
    this.#all.push(registration);
    const [name, fn, context, once] = registration;
    return once ? super.once(name, fn, context) : super.on(name, fn, context);
  }
}
