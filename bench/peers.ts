/** The peers' clients and the zod schemas used as the "ky + zod" and validation contenders. */
import ky from 'ky';
import OpenAI from 'openai';
import * as z from 'zod';
import * as zm from 'zod/mini';

export const BENCH_TOKEN = 'bench-token';

const Party = { number: z.string(), name: z.string() };
const callShape = {
  id: z.string(),
  direction: z.string(),
  from: z.looseObject(Party),
  to: z.looseObject(Party),
  duration: z.number().int(),
  status: z.string(),
  recording_url: z.string().nullable(),
  notes: z.string(),
  tags: z.array(z.string()),
  timestamp: z.string(),
};
const pagination = { total: z.number(), limit: z.number(), offset: z.number(), has_more: z.boolean() };

/** zod classic, lenient like the SDK is meant to be: unknown keys kept. */
export const classicLoosePage = z.looseObject({
  calls: z.array(z.looseObject(callShape)),
  pagination: z.looseObject(pagination),
});

/** zod classic, strict: unknown keys rejected (what an SDK must not do, measured for comparison). */
export const classicStrictPage = z.strictObject({
  calls: z.array(z.strictObject({ ...callShape, from: z.strictObject(Party), to: z.strictObject(Party) })),
  pagination: z.strictObject(pagination),
});

const miniParty = { number: zm.string(), name: zm.string() };
/** zod/mini, lenient. */
export const miniLoosePage = zm.looseObject({
  calls: zm.array(
    zm.looseObject({
      id: zm.string(),
      direction: zm.string(),
      from: zm.looseObject(miniParty),
      to: zm.looseObject(miniParty),
      duration: zm.number().check(zm.int()),
      status: zm.string(),
      recording_url: zm.nullable(zm.string()),
      notes: zm.string(),
      tags: zm.array(zm.string()),
      timestamp: zm.string(),
    }),
  ),
  pagination: zm.looseObject({
    total: zm.number(),
    limit: zm.number(),
    offset: zm.number(),
    has_more: zm.boolean(),
  }),
});

type FetchLike = typeof fetch;

export function openaiClient(baseURL: string, fetchImpl?: FetchLike): OpenAI {
  return new OpenAI({
    apiKey: BENCH_TOKEN,
    baseURL,
    maxRetries: 0,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}

export function kyClient(prefixUrl: string, fetchImpl?: FetchLike) {
  return ky.create({
    prefixUrl,
    retry: 0,
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}

/** Runs `work` with a fresh AbortSignal that a 60 s timer would abort, as a per-attempt timeout does. */
async function withAttemptSignal<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60_000);
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** Every contender's request: GET /v2/calls/recent?limit=100 → the page's `data`. */
export function recentCallsContenders(baseUrl: string, fetchImpl: FetchLike = (...a) => fetch(...a)) {
  const openai = openaiClient(`${baseUrl}/v2`, fetchImpl);
  const kyc = kyClient(baseUrl, fetchImpl);
  const url = `${baseUrl}/v2/calls/recent?limit=100`;
  const headers = { authorization: `Bearer ${BENCH_TOKEN}` };
  const kySdk = ky.create({ retry: 0, throwHttpErrors: false, timeout: false, fetch: fetchImpl });
  return {
    floor: async () => {
      const res = await fetchImpl(url, { headers });
      return ((await res.json()) as { data: unknown }).data;
    },
    /** The floor plus what any per-attempt timeout needs: an AbortSignal and a timer. */
    floorWithTimeout: () =>
      withAttemptSignal(async (signal) => {
        const res = await fetchImpl(url, { headers, signal });
        return ((await res.json()) as { data: unknown }).data;
      }),
    /** ky as the SDK drives it (src/core/transport/http.ts): URL string built by hand, `timeout: false`, own signal. */
    kySdkOptions: () =>
      withAttemptSignal(async (signal) => {
        const res = await kySdk(url, { method: 'GET', headers, body: null, signal });
        return (JSON.parse(await res.text()) as { data: unknown }).data;
      }),
    openai: () => openai.get('/calls/recent', { query: { limit: 100 } }),
    ky: () => kyc.get('v2/calls/recent', { searchParams: { limit: 100 } }).json(),
    kyZod: async () => {
      const body = await kyc
        .get('v2/calls/recent', { searchParams: { limit: 100 } })
        .json<{ data: unknown }>();
      return classicLoosePage.parse(body.data);
    },
  };
}
