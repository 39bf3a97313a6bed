// The sandbox console: live state from server-sent events (`events`), actions as JSON POSTs (`api/…`).
// Served by the sandbox itself; no dependency, no build step.

const IN_PROGRESS = ['initiating', 'ringing', 'answered', 'transferring'];
const STATE_ORDER = [...IN_PROGRESS, 'completed', 'ended', 'missed', 'voicemail'];
const SHOWN_ROWS = 200;

const state = {
  now: 0,
  nowReceivedAt: 0,
  manualClock: true,
  requests: [],
  deliveries: [],
  /** @type {Map<string, {id: string, direction: string, from: string, to: string, status: string, transitions: {status: string, at: number}[]}>} */
  calls: new Map(),
  stats: [],
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

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

function notify(message, isError = false) {
  const notice = $('notice');
  notice.textContent = message;
  notice.classList.toggle('error', isError);
}

async function act(action, body) {
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

function setNow(now) {
  state.now = now;
  state.nowReceivedAt = Date.now();
}

function currentNow() {
  return state.manualClock ? state.now : state.now + (Date.now() - state.nowReceivedAt);
}

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
}

function addRecord(record) {
  if (record.kind === 'call') addCallRecord(record);
  if (record.kind === 'request') state.requests.push(record);
  if (record.kind === 'delivery') state.deliveries.push(record);
}

/** Re-renders `container` with `children`, keeping keyboard focus on the control that had it. */
function replace(container, ...children) {
  const focused = document.activeElement?.id;
  container.replaceChildren(...children);
  if (focused && !document.activeElement?.id) $(focused)?.focus();
}

function renderClock() {
  const now = new Date(currentNow()).toISOString();
  $('now').textContent = `${now.slice(0, 10)} ${now.slice(11, 19)} UTC`;
  $('now').setAttribute('datetime', now);
  $('clock-mode').textContent = state.manualClock ? '(manual clock)' : '(real time)';
  $('advance').hidden = !state.manualClock;
}

function renderCall(call) {
  const endButton = IN_PROGRESS.includes(call.status)
    ? el(
        'button',
        { type: 'button', class: 'secondary', id: `end-${call.id}`, onclick: () => endCall(call.id) },
        `End ${call.id}`,
      )
    : undefined;
  return el(
    'li',
    { class: 'call', 'aria-label': `${call.id} ${call.status}` },
    el('span', { class: 'actions' }, endButton),
    el('strong', {}, call.id),
    ` ${call.direction} ${call.from} → ${call.to}: `,
    el('em', {}, call.status),
    el(
      'ol',
      { 'aria-label': `Transitions of ${call.id}` },
      ...call.transitions.map((step) => el('li', {}, `${time(step.at)} ${step.status}`)),
    ),
  );
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
            el('ul', {}, ...members.map(renderCall)),
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

function deliveryStatus(delivery) {
  const answered = delivery.status === null ? 'no answer' : String(delivery.status);
  return delivery.status === 200 ? answered : `failed: ${answered}`;
}

function nextRedelivery(delivery, later) {
  if (later) return `re-delivered (attempt ${later.attempt})`;
  if (delivery.nextAttemptAt === null) return delivery.status === 200 ? '—' : 'no more re-deliveries';
  const label = `Re-deliver ${delivery.eventId} to ${delivery.url} now`;
  return el(
    'span',
    {},
    `${time(delivery.nextAttemptAt)} `,
    el(
      'button',
      {
        type: 'button',
        class: 'secondary',
        id: `redeliver-${delivery.seq}`,
        'aria-label': label,
        onclick: () => redeliver(delivery),
      },
      'Re-deliver now',
    ),
  );
}

function renderDeliveries() {
  const latest = new Map();
  const rows = [];
  for (const delivery of [...state.deliveries].reverse().slice(0, SHOWN_ROWS)) {
    const key = `${delivery.eventId} ${delivery.url}`;
    const later = latest.get(key);
    latest.set(key, delivery);
    const failed = delivery.status !== 200;
    rows.push(
      el(
        'tr',
        { class: failed ? 'failed' : undefined },
        el('td', {}, time(delivery.at)),
        el('td', {}, `${delivery.type} `, el('code', {}, delivery.eventId)),
        el('td', { class: 'url' }, delivery.url),
        el('td', {}, String(delivery.attempt)),
        el('td', { class: failed ? 'status' : 'status ok' }, deliveryStatus(delivery)),
        el('td', {}, nextRedelivery(delivery, later)),
        el(
          'td',
          {},
          el(
            'details',
            {},
            el('summary', {}, 'Body and signature'),
            el('pre', {}, `Service-Signature: ${delivery.signature}`),
            el('pre', {}, delivery.body),
          ),
        ),
      ),
    );
  }
  replace($('deliveries').tBodies[0], ...rows);
}

function renderRequests() {
  const rows = [...state.requests]
    .reverse()
    .slice(0, SHOWN_ROWS)
    .map((request) =>
      el(
        'tr',
        { class: request.status >= 400 ? 'failed' : undefined },
        el('td', {}, time(request.at)),
        el('td', {}, request.method),
        el('td', { class: 'path' }, request.path),
        el('td', { class: request.status >= 400 ? 'status' : 'status ok' }, String(request.status)),
        el('td', {}, request.principal?.label ?? '—'),
        el('td', {}, request.principal?.plan ?? '—'),
        el('td', {}, request.rate ? `${request.rate.used} / ${request.rate.limit}` : '—'),
      ),
    );
  replace($('requests').tBodies[0], ...rows);
}

function renderChart() {
  const days = state.stats.slice(-14);
  if (days.length === 0) {
    replace($('chart'), el('p', {}, 'No calls yet.'));
    return;
  }
  const top = Math.max(...days.map((day) => day.total_calls));
  const width = 56;
  const height = 120;
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
    renderCalls();
    renderDeliveries();
    renderRequests();
    renderChart();
  }, 0);
}

async function endCall(id) {
  if (await act(`calls/${encodeURIComponent(id)}/end`, {})) notify(`${id} ended`);
}

async function redeliver(delivery) {
  if (await act('redeliver', { eventId: delivery.eventId, url: delivery.url })) {
    notify(`Re-delivering ${delivery.eventId} to ${delivery.url}`);
  }
}

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

const source = new EventSource('events');
source.addEventListener('open', () => {
  $('connection').textContent = 'Live';
});
source.addEventListener('error', () => {
  $('connection').textContent = 'Disconnected: reconnecting…';
});
source.addEventListener('snapshot', (message) => {
  const snapshot = JSON.parse(message.data);
  state.manualClock = snapshot.manualClock;
  state.requests = snapshot.requests;
  state.deliveries = snapshot.deliveries;
  state.calls = new Map();
  for (const record of snapshot.calls) addCallRecord(record);
  state.stats = snapshot.stats;
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
setInterval(() => {
  if (!state.manualClock) renderClock();
}, 1000);
