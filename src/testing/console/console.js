// The sandbox console: live state from server-sent events (`events`), actions as JSON POSTs (`api/…`).
// Served by the sandbox itself; no dependency, no build step.
//
// Live updates never rebuild what the user is looking at: each event's row is made once and then
// updated in place (new ones are added at the top), so an expanded row stays open, focus stays on
// its control, and the browser's scroll anchoring keeps the user's place.

const IN_PROGRESS = ['initiating', 'ringing', 'answered', 'transferring'];
const STATE_ORDER = [...IN_PROGRESS, 'completed', 'ended', 'missed', 'voicemail'];
/** The page's own history is bounded like the server's: the latest of each, oldest dropped first. */
const KEPT = { requests: 200, events: 300, calls: 500, attemptsPerEvent: 50 };
const CALLS_SHOWN_PER_STATE = 20;
/** A notice that is not an error clears itself after this long. */
const NOTICE_MS = 6000;
const NO_ANSWER = { refused: 'connection refused', 'timed out': 'timed out', reset: 'connection reset' };

const state = {
  now: 0,
  nowReceivedAt: 0,
  manualClock: true,
  /** Highest record seq seen: a fresh snapshot (after a reconnect) only adds what is newer. */
  lastSeq: 0,
  requests: [],
  /** @type {Map<string, ReturnType<typeof newEvent>>} by `eventKey`, oldest first */
  events: new Map(),
  /** @type {Map<string, {id: string, direction: string, from: string, to: string, status: string, transitions: {status: string, at: number}[]}>} */
  calls: new Map(),
  webhooks: [],
  stats: [],
  /** The faults in force, each with its `summary` line. */
  faults: [],
};

const $ = (id) => document.getElementById(id);
/** HH:MM:SS of sandbox time, with the date (MM-DD) when it is not the sandbox's today. */
function time(ms) {
  const iso = new Date(ms).toISOString();
  const today = new Date(currentNow()).toISOString().slice(0, 10);
  return iso.startsWith(today) ? iso.slice(11, 19) : `${iso.slice(5, 10)} ${iso.slice(11, 19)}`;
}

/** An element with attributes and children; text is always set as text, never parsed as HTML. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'onclick') node.addEventListener('click', value);
    else if (value !== undefined && value !== false) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.filter((child) => child !== undefined));
  return node;
}

/** A button whose accessible name starts with its text (`label`) and says what it acts on. */
function button(text, label, onclick, { id, primary = false } = {}) {
  return el(
    'button',
    { type: 'button', class: primary ? undefined : 'secondary', id, 'aria-label': label, onclick },
    text,
  );
}

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

let noticeTimer;
function notify(message, isError = false) {
  const notice = $('notice');
  notice.textContent = message;
  notice.classList.toggle('error', isError);
  $('notice-close').hidden = message === '';
  clearTimeout(noticeTimer);
  // An error stays until dismissed or replaced: it may need reading twice.
  if (message !== '' && !isError) noticeTimer = setTimeout(() => notify(''), NOTICE_MS);
}

async function act(action, body = {}) {
  try {
    const response = await fetch(`api/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) {
      notify(`Refused: ${answer.message ?? response.status}`, true);
      return undefined;
    }
    return answer;
  } catch (error) {
    notify(`The sandbox did not answer: ${error}`, true);
    return undefined;
  }
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    notify(`Copied ${what}`);
  } catch {
    notify(`Could not copy ${what}: select it in the row's details instead`, true);
  }
}

function setNow(now) {
  state.now = now;
  state.nowReceivedAt = Date.now();
}

function currentNow() {
  return state.manualClock ? state.now : state.now + (Date.now() - state.nowReceivedAt);
}

/** Keeps the newest `limit` entries of a Map (insertion order: oldest first); calls `dropped` on each removed. */
function trim(map, limit, dropped = () => {}) {
  for (const [key, value] of map) {
    if (map.size <= limit) return;
    map.delete(key);
    dropped(value);
  }
}

// ——— Deliveries: one row per event and registration (or callback), its attempts inside ———

/** Two registrations of one URL are two rows: each gets every event, and each is retried on its own. */
const eventKey = (record) => `${record.eventId} ${record.url} ${record.webhookId ?? 'callback'}`;

/** A shell-quoted word: the curl command must survive any body. */
const quote = (text) => `'${String(text).replaceAll("'", `'\\''`)}'`;

function curlOf(attempt) {
  return [
    `curl -sS -X POST ${quote(attempt.url)}`,
    `-H ${quote('content-type: application/json')}`,
    `-H ${quote(`service-signature: ${attempt.signature}`)}`,
    `--data-raw ${quote(attempt.body)}`,
  ].join(' \\\n  ');
}

function pretty(body) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function callIdOf(body) {
  try {
    return JSON.parse(body).data?.call?.id ?? '';
  } catch {
    return '';
  }
}

/** How much of a receiver's reason the row shows; the attempt's details keep its first 4 KiB. */
const REASON_CHARS = 200;

/**
 * Why a receiver refused, from its answer body: a JSON `error` or `message` (the SDK's receiver
 * answers `{ "error": "<reason>" }`), else the body's text, bounded; '' for an empty body or a 200.
 */
function reasonOf(attempt) {
  const body = attempt.response?.body ?? '';
  if (attempt.status === 200 || body.trim() === '') return '';
  let reason = body.trim();
  try {
    const parsed = JSON.parse(body);
    const said = parsed?.error?.message ?? parsed?.error ?? parsed?.message;
    if (typeof said === 'string' && said !== '') reason = said;
  } catch {}
  return reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS)}…` : reason;
}

function answerText(attempt) {
  if (attempt.noAnswer) return `no answer: ${NO_ANSWER[attempt.noAnswer.cause] ?? attempt.noAnswer.message}`;
  return attempt.status === 200 ? '200' : `failed: ${attempt.status}`;
}

/** delivered (a 200), retrying (a re-delivery is due) or gave up (none will follow). */
function finalState(event) {
  const latest = event.attempts.at(-1);
  if (latest.status === 200) return 'delivered';
  return latest.nextAttemptAt === null ? 'gave up' : 'retrying';
}

function newEvent(record) {
  const event = {
    key: eventKey(record),
    eventId: record.eventId,
    type: record.type,
    url: record.url,
    webhookId: record.webhookId,
    callId: callIdOf(record.body),
    attempts: [],
    node: undefined,
  };
  event.node = eventNode(event);
  return event;
}

/** The row of an event, made once; `updateEvent` changes its text in place. */
function eventNode(event) {
  const label = `${event.eventId} to ${event.url} (${event.webhookId ?? 'callback'})`;
  const parts = {
    badge: el('span', { class: 'badge' }),
    answer: el('span', { class: 'answer' }),
    reason: el('span', { class: 'why-answer' }),
    meta: el('span', { class: 'meta' }),
    attempts: el('ol', { class: 'attempts', 'aria-label': `Attempts of ${label}` }),
    signature: el('pre', { class: 'signature' }),
    // Focusable: a region that scrolls must scroll from the keyboard too.
    body: el('pre', { class: 'payload', tabindex: '0', 'aria-label': `Body of ${label}` }),
    curl: el('pre', { class: 'curl', tabindex: '0', 'aria-label': `${label} as curl` }),
  };
  const resend = button('Resend', `Resend ${label}`, () => resendEvent(event));
  const copyCurl = button('Copy as curl', `Copy as curl ${label}`, () =>
    copy(curlOf(event.attempts.at(-1)), `${event.eventId} as curl`),
  );
  const copyBody = button('Copy body', `Copy body of ${label}`, () =>
    copy(event.attempts.at(-1).body, `the body of ${event.eventId}`),
  );
  const li = el(
    'li',
    { class: 'event', 'data-key': event.key, 'aria-label': label },
    el(
      'div',
      { class: 'event-head' },
      parts.badge,
      parts.answer,
      parts.reason,
      el('strong', { class: 'type' }, event.type),
      el('code', {}, event.eventId),
      event.callId ? el('span', { class: 'call-id' }, event.callId) : undefined,
      el('span', { class: 'webhook-id' }, event.webhookId ?? 'callback'),
      el('span', { class: 'url' }, event.url),
      parts.meta,
    ),
    el('div', { class: 'event-actions' }, resend, copyCurl),
    el(
      'details',
      {},
      el('summary', {}, 'Attempts, body and signature'),
      parts.attempts,
      el('h3', {}, 'Sent'),
      parts.signature,
      el('div', { class: 'payload-head' }, el('span', {}, 'Body'), copyBody),
      parts.body,
      el('h3', {}, 'As curl'),
      parts.curl,
    ),
  );
  event.parts = parts;
  return li;
}

function attemptNode(attempt) {
  const answer = attempt.response;
  const headers = answer ? Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`) : [];
  return el(
    'li',
    { class: attempt.status === 200 ? 'ok' : 'failed' },
    el(
      'p',
      {},
      `#${attempt.attempt} at ${time(attempt.at)}: `,
      el('strong', {}, answerText(attempt)),
      ` in ${attempt.latencyMs} ms`,
      attempt.resent ? ' (resent by hand)' : '',
    ),
    attempt.noAnswer ? el('p', { class: 'why' }, attempt.noAnswer.message) : undefined,
    reasonOf(attempt) ? el('p', { class: 'why-answer' }, `Reason: ${reasonOf(attempt)}`) : undefined,
    answer
      ? el('pre', { 'aria-label': `Response headers of attempt ${attempt.attempt}` }, headers.join('\n'))
      : undefined,
    answer
      ? el(
          'pre',
          { 'aria-label': `Response body of attempt ${attempt.attempt}` },
          answer.body === '' ? '(empty body)' : answer.body,
          answer.truncated ? '\n… (first 4 KiB)' : '',
        )
      : undefined,
  );
}

function updateEvent(event) {
  const latest = event.attempts.at(-1);
  const final = finalState(event);
  const { parts } = event;
  parts.badge.textContent = final;
  parts.badge.className = `badge ${final.replace(' ', '-')}`;
  parts.answer.textContent = answerText(latest);
  parts.reason.textContent = reasonOf(latest) ? `(${reasonOf(latest)})` : '';
  const next = final === 'retrying' ? `, next ${time(latest.nextAttemptAt)}` : '';
  // Attempts are numbered by the sandbox: the latest's number is how many were made, even when
  // the oldest are no longer kept (here or on the server).
  const count = latest.attempt;
  const kept = event.attempts.length < count ? ` (the latest ${event.attempts.length} shown)` : '';
  parts.meta.textContent = `${count} ${count === 1 ? 'attempt' : 'attempts'}${kept}, last ${time(latest.at)}${next}`;
  event.node.classList.toggle('failed', final !== 'delivered');
  parts.signature.textContent = `Service-Signature: ${latest.signature}`;
  parts.body.textContent = pretty(latest.body);
  parts.curl.textContent = curlOf(latest);
}

function addDelivery(record) {
  const key = eventKey(record);
  let event = state.events.get(key);
  if (!event) {
    event = newEvent(record);
    state.events.set(key, event);
    // Added at the top; rows already shown are never moved (moving one would drop its focus).
    $('deliveries').prepend(event.node);
    trim(state.events, KEPT.events, (dropped) => dropped.node.remove());
  }
  event.attempts.push(record);
  event.parts.attempts.append(attemptNode(record));
  if (event.attempts.length > KEPT.attemptsPerEvent) {
    event.attempts.shift();
    event.parts.attempts.firstElementChild?.remove();
  }
  dirtyEvents.add(event);
}

const dirtyEvents = new Set();

function filters() {
  const form = new FormData($('filters'));
  return {
    failed: form.get('failed') === 'on',
    type: String(form.get('type') ?? ''),
    call: String(form.get('call') ?? '').trim(),
    url: String(form.get('url') ?? ''),
  };
}

function shown(event, chosen) {
  if (chosen.failed && finalState(event) === 'delivered') return false;
  if (chosen.type && event.type !== chosen.type) return false;
  if (chosen.url && event.url !== chosen.url) return false;
  return !chosen.call || event.callId.includes(chosen.call);
}

/** Keeps a select's options equal to `values` (plus "all"), and its choice. */
function syncOptions(select, values) {
  const wanted = ['', ...values];
  const have = [...select.options].map((option) => option.value);
  if (wanted.join('\n') === have.join('\n')) return;
  const chosen = select.value;
  select.replaceChildren(
    ...wanted.map((value) => el('option', { value, selected: value === chosen }, value || 'all')),
  );
}

function renderDeliveries() {
  for (const event of dirtyEvents) updateEvent(event);
  dirtyEvents.clear();
  const chosen = filters();
  const events = [...state.events.values()];
  // "Failing now" counts the rows the filters show, like the list under it.
  let failing = 0;
  for (const event of events) {
    event.node.hidden = !shown(event, chosen);
    if (!event.node.hidden && finalState(event) !== 'delivered') failing++;
  }
  $('failing').textContent = `failing now: ${failing}`;
  $('failing').classList.toggle('failing', failing > 0);
  $('no-deliveries').hidden = events.length > 0;
  syncOptions($('filter-type'), [...new Set(events.map((event) => event.type))].sort());
  syncOptions($('filter-url'), [...new Set(events.map((event) => event.url))].sort());
}

async function resendEvent(event) {
  if (await act('resend', { eventId: event.eventId, url: event.url, webhookId: event.webhookId })) {
    notify(`Resending ${event.eventId} to ${event.url}`);
  }
}

// ——— Calls ———

function addCallRecord(record) {
  const call = state.calls.get(record.callId) ?? {
    id: record.callId,
    direction: record.direction,
    from: record.from,
    to: record.to,
    status: record.status,
    transitions: [],
  };
  call.status = record.status;
  call.transitions.push({ status: record.status, at: record.at });
  state.calls.set(call.id, call);
  trim(state.calls, KEPT.calls);
}

function callButton(call, verb, label, primary = false) {
  return button(label, `${label} ${call.id}`, () => callAction(call.id, verb, label), {
    id: `${verb}-${call.id}`,
    primary,
  });
}

function renderCall(call) {
  const ringing = call.status === 'ringing';
  const buttons = [
    ...(ringing
      ? [
          callButton(call, 'answer', 'Answer', true),
          callButton(call, 'miss', 'Miss'),
          callButton(call, 'voicemail', 'Voicemail'),
        ]
      : []),
    ...(IN_PROGRESS.includes(call.status) ? [callButton(call, 'end', 'End')] : []),
  ];
  return el(
    'li',
    { class: 'call', 'aria-label': `${call.id} ${call.status}` },
    el(
      'p',
      {},
      el('strong', {}, call.id),
      ` ${call.direction} ${call.from} → ${call.to}: `,
      el('em', {}, call.status),
    ),
    buttons.length > 0 ? el('div', { class: 'actions' }, ...buttons) : undefined,
    el(
      'ol',
      { 'aria-label': `Transitions of ${call.id}` },
      ...call.transitions.map((step) => el('li', {}, `${time(step.at)} ${step.status}`)),
    ),
  );
}

/** Re-renders `container` with `children`, keeping keyboard focus on the control that had it. */
function replace(container, ...children) {
  const focused = document.activeElement?.id;
  container.replaceChildren(...children);
  if (focused && !document.activeElement?.id) $(focused)?.focus();
}

function renderCalls() {
  const calls = [...state.calls.values()].reverse();
  const groups = STATE_ORDER.map((status) => [status, calls.filter((call) => call.status === status)]).filter(
    ([, members]) => members.length > 0,
  );
  replace(
    $('calls'),
    ...(groups.length === 0
      ? [el('p', {}, 'No calls yet.')]
      : groups.map(([status, members]) =>
          el(
            'section',
            { class: 'calls-group', 'aria-label': `${status} calls` },
            el('h3', {}, `${status} (${members.length})`),
            el('ul', {}, ...members.slice(0, CALLS_SHOWN_PER_STATE).map(renderCall)),
          ),
        )),
  );
  const select = $('transfer-call');
  const chosen = select.value;
  const transferable = calls.filter((call) => IN_PROGRESS.includes(call.status));
  select.replaceChildren(
    ...transferable.map((call) => el('option', { value: call.id, selected: call.id === chosen }, call.id)),
  );
}

async function callAction(id, verb, label) {
  const answer = await act(`calls/${encodeURIComponent(id)}/${verb}`);
  if (answer) notify(`${label}: ${id} ${verb === 'end' ? 'ended' : `is ${answer.call.status}`}`);
}

// ——— Webhooks, requests, clock, chart ———

function renderWebhooks() {
  const counts = new Map();
  for (const webhook of state.webhooks) counts.set(webhook.url, (counts.get(webhook.url) ?? 0) + 1);
  replace(
    $('webhooks'),
    state.webhooks.length === 0
      ? el('p', {}, 'None registered.')
      : el(
          'ul',
          {},
          ...state.webhooks.map((webhook) => {
            const times = counts.get(webhook.url);
            return el(
              'li',
              {
                class: times > 1 ? 'webhook duplicate' : 'webhook',
                'aria-label': `${webhook.id} ${webhook.url}`,
              },
              el('p', {}, el('strong', {}, webhook.id), ' ', el('span', { class: 'url' }, webhook.url)),
              el('p', { class: 'meta' }, webhook.events.join(', ')),
              times > 1
                ? el(
                    'p',
                    { class: 'warning' },
                    `This URL is registered ${times} times: it gets every event ${times} times.`,
                  )
                : undefined,
              el(
                'div',
                { class: 'actions' },
                button(
                  'Send a test event',
                  `Send a test event to ${webhook.id}`,
                  () => webhookAction(webhook, 'test'),
                  {
                    id: `test-${webhook.id}`,
                  },
                ),
                button('Delete', `Delete ${webhook.id}`, () => webhookAction(webhook, 'delete'), {
                  id: `delete-${webhook.id}`,
                }),
              ),
            );
          }),
        ),
  );
}

async function webhookAction(webhook, verb) {
  const answer = await act(`webhooks/${encodeURIComponent(webhook.id)}/${verb}`);
  if (answer && verb === 'test') notify(`Test event ${answer.sent.eventId} sent to ${webhook.url}`);
  if (answer && verb === 'delete') notify(`${webhook.id} deleted`);
}

// ——— Faults ———

function renderFaults() {
  $('clear-faults').hidden = state.faults.length === 0;
  replace(
    $('faults'),
    state.faults.length === 0
      ? el('p', {}, 'None in force.')
      : el(
          'ul',
          { class: 'faults-list', 'aria-label': 'Faults in force' },
          ...state.faults.map((fault) =>
            el(
              'li',
              { class: 'fault-item', 'aria-label': fault.summary },
              el('p', {}, fault.summary),
              button('Clear', `Clear ${fault.id}`, () => clearFault(fault.id), { id: `clear-${fault.id}` }),
            ),
          ),
        ),
  );
}

async function clearFault(id) {
  if (await act(`faults/${encodeURIComponent(id)}/clear`)) notify(`${id} cleared`);
}

/** Shows the option of the chosen kind only (status, Retry-After or delay). */
function syncFaultOptions() {
  const kind = $('fault-kind').value;
  for (const option of document.querySelectorAll('.fault-option'))
    option.hidden = option.dataset.kind !== kind;
}

function requestRow(request) {
  // No status: a fault dropped the connection, or the request was aborted before its answer.
  const failed = request.status === null || request.status >= 400;
  return el(
    'tr',
    { class: failed ? 'failed' : undefined },
    el('td', {}, time(request.at)),
    el('td', {}, request.method),
    el('td', { class: 'path' }, request.path),
    el(
      'td',
      { class: failed ? 'status' : 'status ok' },
      request.status === null ? 'no answer' : String(request.status),
    ),
    el('td', {}, request.principal?.label ?? '—'),
    el('td', {}, request.principal?.plan ?? '—'),
    el('td', {}, request.rate ? `${request.rate.used} / ${request.rate.limit}` : '—'),
    request.fault
      ? el('td', { class: 'fault' }, `${request.fault.id} ${request.fault.kind}`)
      : el('td', {}, '—'),
  );
}

const newRequests = [];
function addRequest(record) {
  state.requests.push(record);
  if (state.requests.length > KEPT.requests) state.requests.shift();
  newRequests.push(record);
}

function renderRequests() {
  const body = $('requests').tBodies[0];
  body.prepend(...newRequests.splice(0).reverse().map(requestRow));
  while (body.rows.length > KEPT.requests) body.lastElementChild?.remove();
}

function renderClock() {
  const now = new Date(currentNow()).toISOString();
  $('now').textContent = `${now.slice(0, 10)} ${now.slice(11, 19)} UTC`;
  $('now').setAttribute('datetime', now);
  $('clock-mode').textContent = state.manualClock ? '(manual clock)' : '(real time)';
  $('advance').hidden = !state.manualClock;
}

function renderChart() {
  const days = state.stats.slice(-14);
  if (days.length === 0) {
    replace($('chart'), el('p', {}, 'No calls yet.'));
    return;
  }
  const top = Math.max(...days.map((day) => day.total_calls));
  const width = 56;
  const height = 100;
  const bars = days.map((day, index) => {
    const barHeight = Math.max(2, Math.round((day.total_calls / top) * height));
    const x = index * width + 8;
    const label = `${day.date}: ${day.total_calls} ${day.total_calls === 1 ? 'call' : 'calls'}`;
    return svg(
      'g',
      {},
      svg(
        'rect',
        {
          class: 'chart-bar',
          x,
          y: 20 + height - barHeight,
          width: width - 16,
          height: barHeight,
          role: 'img',
          'aria-label': label,
        },
        svg('title', {}, label),
      ),
      svg(
        'text',
        {
          class: 'chart-label',
          x: x + (width - 16) / 2,
          y: 14 + height - barHeight,
          'text-anchor': 'middle',
        },
        String(day.total_calls),
      ),
      svg(
        'text',
        { class: 'chart-label', x: x + (width - 16) / 2, y: height + 36, 'text-anchor': 'middle' },
        day.date.slice(5),
      ),
    );
  });
  const total = days.reduce((sum, day) => sum + day.total_calls, 0);
  replace(
    $('chart'),
    svg(
      'svg',
      {
        viewBox: `0 0 ${days.length * width + 16} ${height + 44}`,
        width: days.length * width + 16,
        role: 'group',
        'aria-label': `Calls per day: ${total} over ${days.length} days`,
      },
      ...bars,
    ),
  );
}

let renderQueued = false;
function render() {
  if (renderQueued) return;
  renderQueued = true;
  setTimeout(() => {
    renderQueued = false;
    renderClock();
    renderDeliveries();
    renderCalls();
    renderWebhooks();
    renderFaults();
    renderRequests();
    renderChart();
  }, 0);
}

function addRecord(record) {
  if (record.seq <= state.lastSeq) return;
  state.lastSeq = record.seq;
  if (record.kind === 'call') addCallRecord(record);
  if (record.kind === 'request') addRequest(record);
  if (record.kind === 'delivery') addDelivery(record);
}

// ——— Forms and the event stream ———

$('notice-close').addEventListener('click', () => notify(''));
$('filters').addEventListener('input', render);
$('filters').addEventListener('submit', (event) => event.preventDefault());

$('resend-failed').addEventListener('click', async () => {
  const answer = await act('resend-failed');
  if (answer) notify(`Resending ${answer.resent} failed ${answer.resent === 1 ? 'delivery' : 'deliveries'}`);
});

$('incoming').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.currentTarget);
  const answer = await act('incoming', {
    from: form.get('from'),
    to: form.get('to'),
    outcome: form.get('outcome'),
  });
  if (answer)
    notify(`Incoming call ${answer.call.id} is ${answer.call.status}; ${answer.call.outcome} after ringing`);
});

$('place').addEventListener('submit', async (event) => {
  event.preventDefault();
  const to = new FormData(event.currentTarget).get('to');
  const answer = await act('calls', { to });
  if (answer) notify(`Outbound call ${answer.data.call.id} to ${to} is ${answer.data.call.status}`);
});

$('advance').addEventListener('submit', async (event) => {
  event.preventDefault();
  const seconds = Number(new FormData(event.currentTarget).get('seconds'));
  const answer = await act('advance', { ms: Math.round(seconds * 1000) });
  if (!answer) return;
  setNow(answer.now);
  notify(`Clock advanced by ${seconds} s`);
  render();
});

$('transfer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.currentTarget);
  const id = String(form.get('call') ?? '');
  const answer = await act(`calls/${encodeURIComponent(id)}/transfer`, { to: form.get('to') });
  if (answer) notify(`${id} is transferring to ${form.get('to')}`);
});

$('fault-kind').addEventListener('change', syncFaultOptions);
$('fault').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.currentTarget);
  const kind = String(form.get('kind'));
  const fault = { path: form.get('path'), kind };
  if (form.get('method')) fault.method = form.get('method');
  if (form.get('times')) fault.times = Number(form.get('times'));
  for (const [option, forKind] of [
    ['status', 'status'],
    ['retryAfter', 'rate_limit'],
    ['delayMs', 'delay'],
  ]) {
    if (kind === forKind && form.get(option) !== '') fault[option] = Number(form.get(option));
  }
  const answer = await act('faults', fault);
  if (answer) notify(`Injected ${answer.fault.summary}`);
});
$('clear-faults').addEventListener('click', async () => {
  const answer = await act('faults/clear');
  if (answer) notify(`Cleared ${answer.cleared} ${answer.cleared === 1 ? 'fault' : 'faults'}`);
});

const source = new EventSource('events');
source.addEventListener('open', () => {
  $('connection').textContent = 'Live';
});
source.addEventListener('error', () => {
  $('connection').textContent = 'Disconnected: reconnecting…';
});
source.addEventListener('snapshot', (message) => {
  const snapshot = JSON.parse(message.data);
  const records = [...snapshot.requests, ...snapshot.deliveries, ...snapshot.calls].sort(
    (a, b) => a.seq - b.seq,
  );
  // A restarted sandbox numbers its records from 1 again: start over rather than skip them.
  if ((records.at(-1)?.seq ?? 0) < state.lastSeq) window.location.reload();
  state.manualClock = snapshot.manualClock;
  for (const record of records) addRecord(record);
  state.webhooks = snapshot.webhooks;
  state.stats = snapshot.stats;
  state.faults = snapshot.faults;
  setNow(snapshot.now);
  render();
});
source.addEventListener('activity', (message) => {
  const { record, now } = JSON.parse(message.data);
  addRecord(record);
  setNow(now);
  render();
});
source.addEventListener('stats', (message) => {
  state.stats = JSON.parse(message.data);
  render();
});
source.addEventListener('faults', (message) => {
  state.faults = JSON.parse(message.data);
  render();
});
source.addEventListener('webhooks', (message) => {
  state.webhooks = JSON.parse(message.data);
  render();
});
setInterval(() => {
  if (!state.manualClock) renderClock();
}, 1000);
