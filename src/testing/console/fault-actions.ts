import type { FaultInit } from '../faults.js';
import { json, notFound, readJsonObject } from '../http.js';
import { onlyFields } from '../validate.js';
import { type ConsoleWorld, faultList } from './world.js';

/** `faults`: injects the fault the body describes (the fields of `sandbox.injectFault`). */
export async function addFault(world: ConsoleWorld, request: Request): Promise<Response> {
  const body = await readJsonObject(request);
  onlyFields(body, ['method', 'path', 'kind', 'times', 'status', 'retryAfter', 'delayMs']);
  // injectFault checks every field and names the one that is wrong (a 400 from here).
  const { id } = world.faults.inject(body as unknown as FaultInit);
  return json({ fault: faultList(world).find((fault) => fault.id === id) ?? { id } }, 201);
}

/** `faults/clear` (every fault) and `faults/{id}/clear` (one). */
export async function clearFaults(world: ConsoleWorld, request: Request, id?: string): Promise<Response> {
  onlyFields(await readJsonObject(request), []);
  if (id === undefined) {
    const cleared = world.faults.list().length;
    world.faults.clearAll();
    return json({ cleared });
  }
  if (!world.faults.clear(id)) throw notFound(`No fault ${id} is in force`);
  return json({ cleared: 1 });
}
