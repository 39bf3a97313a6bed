import { endCall, transferCall } from '../calls-routes.js';
import type { Principal } from '../credentials.js';
import { json, notFound, readJsonObject, SandboxError } from '../http.js';
import { decodeSegment } from '../router.js';
import { e164, enumValue, onlyFields, requiredString } from '../validate.js';
import type { ConsoleWorld } from './world.js';

/** How long a call simulated from the console rings before its outcome (answered, missed, voicemail). */
export const CONSOLE_RING_MS = 5_000;
const OUTCOMES = ['answered', 'missed', 'voicemail'] as const;
/** The longest single move of the clock the console accepts: one day. */
const MAX_ADVANCE_MS = 86_400_000;

// The console acts as an administrator of the account: end and transfer go through the API's own
// routes, so they check and answer exactly as DELETE /v2/calls/{id} and its transfer do.
const CONSOLE_PRINCIPAL: Principal = {
  version: 'v2',
  id: 'console',
  scopes: ['calls:read', 'calls:write'],
  admin: true,
};

async function incoming(world: ConsoleWorld, request: Request): Promise<Response> {
  const body = await readJsonObject(request);
  onlyFields(body, ['from', 'to', 'outcome']);
  const from = e164(body.from, 'from');
  const to = body.to === undefined || body.to === '' ? undefined : e164(body.to, 'to');
  const outcome = enumValue(body.outcome ?? 'answered', 'outcome', OUTCOMES);
  const { id } = world.simulateIncomingCall({ from, ...(to === undefined ? {} : { to }) });
  world.clock.schedule(CONSOLE_RING_MS, () => {
    // Ended or transferred from the console meanwhile: the outcome no longer applies.
    if (world.calls.get(id).status === 'ringing') world.calls.settleRinging(id, outcome);
  });
  return json({ call: { id, status: world.calls.get(id).status, outcome } }, 201);
}

async function advance(world: ConsoleWorld, request: Request): Promise<Response> {
  const body = await readJsonObject(request);
  onlyFields(body, ['ms']);
  const ms = body.ms;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms <= 0 || ms > MAX_ADVANCE_MS) {
    throw new SandboxError(400, 'invalid_parameter', `ms must be a whole number from 1 to ${MAX_ADVANCE_MS}`);
  }
  if (!world.manualClock) {
    throw new SandboxError(409, 'invalid_parameter', 'The clock follows real time: it cannot be advanced');
  }
  await world.advance(ms);
  return json({ now: world.clock.now() });
}

async function redeliver(world: ConsoleWorld, request: Request): Promise<Response> {
  const body = await readJsonObject(request);
  onlyFields(body, ['eventId', 'url']);
  const eventId = requiredString(body, 'eventId');
  const url = requiredString(body, 'url');
  if (!world.deliverer.redeliverNow(eventId, url)) {
    throw notFound(`No re-delivery of ${eventId} to ${url} is waiting`);
  }
  return json({ redelivering: { eventId, url } }, 202);
}

/** Runs the console action at `action` (the path after /api/); unknown actions are 404. */
export function runAction(
  world: ConsoleWorld,
  action: string,
  request: Request,
): Promise<Response> | Response {
  if (action === 'incoming') return incoming(world, request);
  if (action === 'advance') return advance(world, request);
  if (action === 'redeliver') return redeliver(world, request);
  const call = /^calls\/([^/]+)\/(end|transfer)$/.exec(action);
  const id = decodeSegment(call?.[1] ?? '');
  if (call?.[2] === 'end') return endCall(world.calls, id, CONSOLE_PRINCIPAL);
  if (call?.[2] === 'transfer') return transferCall(world.calls, id, request, CONSOLE_PRINCIPAL);
  throw notFound(`No console action ${action}`);
}
