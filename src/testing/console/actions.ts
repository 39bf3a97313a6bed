import { createCall, endCall, transferCall } from '../calls-routes.js';
import type { Principal } from '../credentials.js';
import { invalid, json, notFound, readJsonObject, SandboxError } from '../http.js';
import { decodeSegment } from '../router.js';
import { e164, enumValue, onlyFields } from '../validate.js';
import { addFault, clearFaults } from './fault-actions.js';
import { resend, resendFailed, webhookAction } from './webhook-actions.js';
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

/** What the console's answer, miss and voicemail buttons do to a ringing call. */
const SETTLE = { answer: 'answered', miss: 'missed', voicemail: 'voicemail' } as const;

function settle(world: ConsoleWorld, id: string, verb: keyof typeof SETTLE): Response {
  const call = world.calls.get(id);
  if (call.status !== 'ringing') throw invalid(`Call ${id} is ${call.status}, not ringing`);
  world.calls.settleRinging(id, SETTLE[verb]);
  return json({ call: { id, status: call.status } });
}

/** Runs the console action at `action` (the path after /api/); unknown actions are 404. */
export function runAction(
  world: ConsoleWorld,
  action: string,
  request: Request,
): Promise<Response> | Response {
  if (action === 'incoming') return incoming(world, request);
  if (action === 'advance') return advance(world, request);
  if (action === 'redeliver') return resend(world, request, true);
  if (action === 'resend') return resend(world, request, false);
  if (action === 'resend-failed') return resendFailed(world, request);
  if (action === 'faults') return addFault(world, request);
  if (action === 'faults/clear') return clearFaults(world, request);
  const fault = /^faults\/([^/]+)\/clear$/.exec(action);
  if (fault) return clearFaults(world, request, decodeSegment(fault[1] ?? ''));
  // Placed as the API places it, as an administrator of the account, from its number.
  if (action === 'calls') return createCall(world.calls, request, CONSOLE_PRINCIPAL, world.accountNumber);
  const webhook = /^webhooks\/([^/]+)\/(delete|test)$/.exec(action);
  if (webhook) return webhookAction(world, decodeSegment(webhook[1] ?? ''), webhook[2] ?? '');
  const call = /^calls\/([^/]+)\/(end|transfer|answer|miss|voicemail)$/.exec(action);
  const id = decodeSegment(call?.[1] ?? '');
  const verb = call?.[2];
  if (verb === 'end') return endCall(world.calls, id, CONSOLE_PRINCIPAL);
  if (verb === 'transfer') return transferCall(world.calls, id, request, CONSOLE_PRINCIPAL);
  if (verb === 'answer' || verb === 'miss' || verb === 'voicemail') return settle(world, id, verb);
  throw notFound(`No console action ${action}`);
}
