/** Wire-shaped data for the benchmarks (SPEC.md: list-form Call, v2 offset pagination in `data`). */

export function listCall(index: number) {
  const n = String(index).padStart(6, '0');
  return {
    id: `call_${n}`,
    direction: index % 2 ? 'inbound' : 'outbound',
    from: { number: `+1555${n}1`, name: `Caller number ${n}` },
    to: { number: `+1444${n}2`, name: `Agent number ${n}` },
    duration: index % 7 === 0 ? 0 : 30 + (index % 600),
    status: index % 7 === 0 ? 'missed' : 'completed',
    recording_url: index % 3 ? `https://api.example.com/v2/calls/call_${n}/recording` : null,
    notes: index % 4 ? 'Asked about an invoice; will call back.' : '',
    tags: index % 5 ? ['support', 'billing'] : [],
    timestamp: new Date(Date.UTC(2026, 10, 22, 12, 0, 0) - index * 60_000).toISOString(),
  };
}

/** `GET /v2/calls/recent` answer: `limit` calls from `offset` out of `total`. */
export function recentCallsPage(offset: number, limit: number, total: number) {
  const count = Math.max(0, Math.min(limit, total - offset));
  return {
    status: 'success',
    data: {
      calls: Array.from({ length: count }, (_, i) => listCall(offset + i)),
      pagination: { total, limit, offset, has_more: offset + count < total },
    },
  };
}

/** A webhook body of about `bytes` bytes: a `call.incoming` event padded with custom data. */
export function webhookBody(bytes: number): string {
  const event = {
    id: 'evt_000001',
    type: 'call.incoming',
    created_at: '2026-11-22T12:00:00Z',
    data: {
      call_id: 'call_000001',
      from: { number: '+15550000001', name: 'Caller' },
      to: { number: '+14440000002', name: 'Agent' },
      status: 'ringing',
      custom_data: { padding: '' },
    },
  };
  const base = JSON.stringify(event).length;
  event.data.custom_data.padding = 'x'.repeat(Math.max(0, bytes - base));
  return JSON.stringify(event);
}
