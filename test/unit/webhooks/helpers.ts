import { createHmac } from 'node:crypto';

export const SECRET = 'whsec_canary_secret_7f3a';
export const NOW = 1_763_000_000;

export const incoming = {
  id: 'evt_1',
  type: 'call.incoming',
  created_at: '2025-11-13T02:13:20Z',
  data: {
    call: {
      id: 'call_1',
      direction: 'inbound',
      from: { number: '+15551234567', name: 'Ada', contact_id: 'ct_1' },
      to: { number: '+15557654321', name: 'Desk', user_id: 'usr_1' },
      status: 'ringing',
      timestamp: '2025-11-13T02:13:20Z',
      queue: { id: 'q_1', name: 'Support' },
      custom_data: { crm: 42 },
    },
  },
};

export const body = (event: object = incoming): string => JSON.stringify(event);

/** Reference signature computed independently of the SDK. */
export const hmac = (payload: string | Uint8Array, secret = SECRET): string =>
  createHmac('sha256', secret).update(payload).digest('hex');

export const header = (payload: string | Uint8Array, secret = SECRET, t = NOW): string =>
  `t=${t},v1=${hmac(payload, secret)}`;

/** A signed delivery of a minimal `call.incoming` event `id`, created at NOW. */
export const delivery = (id = 'evt_1') => {
  const raw = body({ id, type: 'call.incoming', created_at: '2025-11-13T02:13:20Z', data: {} });
  return { body: raw, headers: { 'service-signature': header(raw) } };
};
