/** What bench/rows/receiver.ts and its server process agree on: the contenders' names and the secret. */
export type ContenderName =
  | 'floor-a'
  | 'floor-b'
  | 'sdk-memory'
  | 'sdk-redis'
  | 'stripe'
  | 'standardwebhooks'
  | 'octokit';

/** The one secret every scheme signs with (Standard Webhooks takes its base64 form). */
export const SECRET = 'whsec_bench_receiver_0123456789';
