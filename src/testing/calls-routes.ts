import { creationForm, detailForm, listForm } from './call-forms.js';
import type { CallStore, StoredCall } from './calls.js';
import { type Principal, requireAdminFor, requireScope } from './credentials.js';
import { isLoopbackUrl } from './delivery.js';
import { invalid, notFound, readJsonObject, success } from './http.js';
import { computeStats } from './stats.js';
import {
  customData,
  dateParam,
  e164,
  enumParam,
  enumValue,
  intParam,
  onlyFields,
  optionalBoolean,
  optionalString,
} from './validate.js';

const READ = ['calls:read', 'calls:write'];

/** `answered` matches every call that was answered, whatever happened after. */
function matchesStatus(call: StoredCall, status: string | undefined): boolean {
  if (status === undefined || status === 'all') return true;
  return status === 'answered' ? call.answeredAt !== null : call.status === status;
}

/** Calls in a period for a user; shared by recent and stats. */
function selectCalls(store: CallStore, query: URLSearchParams, principal: Principal) {
  const userId = query.get('user_id');
  requireAdminFor(principal, userId);
  const from = dateParam(query, 'from');
  const to = dateParam(query, 'to', true);
  return store
    .all()
    .filter(
      (call) => (from === undefined || call.startedAt >= from) && (to === undefined || call.startedAt <= to),
    )
    .filter((call) => userId === null || call.userId === userId || call.to.user_id === userId);
}

export function listRecent(store: CallStore, query: URLSearchParams, principal: Principal) {
  requireScope(principal, ...READ);
  const limit = intParam(query, 'limit', 20, 1, 100);
  const offset = intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const direction = enumParam(query, 'direction', ['inbound', 'outbound', 'all'] as const);
  const status = enumParam(query, 'status', ['answered', 'missed', 'voicemail', 'all'] as const);
  const matching = selectCalls(store, query, principal)
    .filter((call) => direction === undefined || direction === 'all' || call.direction === direction)
    .filter((call) => matchesStatus(call, status))
    // Newest first; the id breaks ties between calls placed in the same millisecond.
    .sort((a, b) => b.startedAt - a.startedAt || b.id.localeCompare(a.id));
  const calls = matching.slice(offset, offset + limit).map((call) => listForm(call, store.duration(call)));
  return success({
    calls,
    pagination: { total: matching.length, limit, offset, has_more: offset + calls.length < matching.length },
  });
}

export function getCall(store: CallStore, id: string, principal: Principal) {
  requireScope(principal, ...READ);
  const call = store.get(id);
  return success({ call: detailForm(call, store.duration(call)) });
}

/** The sandbox has no audio: a recording is 404 with a message that says so, not "no route". */
export function getRecording(store: CallStore, id: string, principal: Principal): never {
  requireScope(principal, ...READ);
  const call = store.get(id);
  throw notFound(
    call.record ? 'The sandbox serves no recording audio' : `Call ${id} was not recorded (record: true)`,
  );
}

export function callStats(store: CallStore, query: URLSearchParams, principal: Principal) {
  requireScope(principal, ...READ);
  if (!query.has('from') || !query.has('to')) throw invalid('from and to are required');
  const groupBy = enumParam(query, 'group_by', ['day', 'week', 'month', 'none'] as const) ?? 'none';
  const calls = selectCalls(store, query, principal);
  return success({ stats: computeStats(calls, groupBy, (call) => store.duration(call)) });
}

/** Fields POST /v2/calls accepts (SPEC.md). */
const CREATE_FIELDS = ['to', 'from', 'user_id', 'record', 'callback_url', 'custom_data'] as const;

export async function createCall(
  store: CallStore,
  request: Request,
  principal: Principal,
  accountNumber: string,
) {
  requireScope(principal, 'calls:write');
  const body = await readJsonObject(request);
  onlyFields(body, CREATE_FIELDS);
  const to = e164(body.to, 'to');
  const from = body.from === undefined ? accountNumber : e164(body.from, 'from');
  if (from !== accountNumber) throw invalid('from must be a valid number of the account');
  const userId = optionalString(body, 'user_id') ?? null;
  requireAdminFor(principal, userId);
  const callbackUrl = optionalString(body, 'callback_url') ?? null;
  if (callbackUrl !== null && !isLoopbackUrl(callbackUrl)) {
    throw invalid('callback_url must be an http(s) URL on 127.0.0.1 or localhost in the sandbox');
  }
  const custom = customData(body.custom_data ?? {}, 'custom_data');
  const call = store.add({
    direction: 'outbound',
    from: { number: from, name: 'Sandbox account', contact_id: null },
    to: { number: to, name: '', user_id: null },
    status: 'initiating',
    record: optionalBoolean(body, 'record') ?? false,
    notes: '',
    tags: [],
    queue: null,
    customData: custom,
    callbackUrl,
    userId,
  });
  return success({ call: creationForm(call) });
}

export function endCall(store: CallStore, id: string, principal: Principal) {
  requireScope(principal, 'calls:write');
  const call = store.get(id);
  store.end(call);
  return success({
    call: { id: call.id, status: call.status, ended_at: new Date(call.endedAt ?? 0).toISOString() },
  });
}

export async function transferCall(store: CallStore, id: string, request: Request, principal: Principal) {
  requireScope(principal, 'calls:write');
  const call = store.get(id);
  const body = await readJsonObject(request);
  onlyFields(body, ['to', 'type', 'callback_url']);
  const to = optionalString(body, 'to');
  if (!to) throw invalid('to is required');
  const type =
    body.type === undefined ? 'blind' : enumValue(body.type, 'type', ['blind', 'attended'] as const);
  const callbackUrl = optionalString(body, 'callback_url');
  if (callbackUrl !== undefined && !isLoopbackUrl(callbackUrl)) {
    throw invalid('callback_url must be an http(s) URL on 127.0.0.1 or localhost in the sandbox');
  }
  store.transfer(call, to, type, callbackUrl);
  return success({ call: { id: call.id, status: call.status, transfer_to: to, transfer_type: type } });
}
