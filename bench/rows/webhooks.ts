/** Row 4: verifying (and parsing) a webhook, ops/s at 1 KB and 64 KB, vs node:crypto + JSON.parse. */
import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual, webcrypto } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { webhookBody } from '../fixtures.js';
import { type Contender, compare, type Measured } from '../harness.js';
import { goal, type RowResult, throughputTable } from '../report.js';
import type { SdkWebhooksModule } from '../sdk.js';

const SECRET = 'whsec_bench_secret_0123456789';
const subtle = webcrypto.subtle as SubtleCrypto;
const encoder = new TextEncoder();

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(hex.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** `t=<unix>,v1=<hex>` → parts; the floor's and Web Crypto contender's minimal parser. */
function parseHeader(header: string): { t: number; v1: string } {
  let t = Number.NaN;
  let v1 = '';
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq);
    if (key === 't') t = Number(part.slice(eq + 1));
    else if (key === 'v1') v1 = part.slice(eq + 1);
  }
  if (!Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > 300) throw new Error('timestamp');
  return { t, v1 };
}

async function contendersFor(size: number, sdk: SdkWebhooksModule | undefined): Promise<Contender[]> {
  const body = webhookBody(size);
  const now = Math.floor(Date.now() / 1000);
  const ourHeader = `t=${now},v1=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const stripeHeader = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
  const stripeCrypto = Stripe.createSubtleCryptoProvider();
  const standardSecret = `whsec_${Buffer.from(SECRET).toString('base64')}`;
  const standard = new StandardWebhook(standardSecret);
  const msgId = 'msg_bench';
  const standardHeaders = {
    'webhook-id': msgId,
    'webhook-timestamp': String(now),
    'webhook-signature': standard.sign(msgId, new Date(now * 1000), body),
  };
  const key = await subtle.importKey(
    'raw',
    encoder.encode(SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const contenders: Contender[] = [
    {
      name: 'node:crypto HMAC + timingSafeEqual + JSON.parse (floor)',
      run: () => {
        const { v1 } = parseHeader(ourHeader);
        const expected = createHmac('sha256', SECRET).update(body).digest();
        const received = Buffer.from(v1, 'hex');
        if (received.length !== expected.length || !timingSafeEqual(expected, received))
          throw new Error('sig');
        return JSON.parse(body);
      },
    },
    { name: 'Stripe constructEvent', run: () => Stripe.webhooks.constructEvent(body, stripeHeader, SECRET) },
    {
      name: 'Stripe constructEventAsync (Web Crypto)',
      run: () => Stripe.webhooks.constructEventAsync(body, stripeHeader, SECRET, undefined, stripeCrypto),
    },
    { name: 'standardwebhooks verify', run: () => standard.verify(body, standardHeaders) },
    {
      name: 'Web Crypto, cached key + JSON.parse',
      run: async () => {
        const { v1 } = parseHeader(ourHeader);
        if (!(await subtle.verify('HMAC', key, hexToBytes(v1), encoder.encode(body)))) throw new Error('sig');
        return JSON.parse(body);
      },
    },
  ];
  if (sdk) {
    const header = await sdk.signWebhook(body, SECRET, { timestamp: now });
    contenders.push({
      name: 'telephony-sdk verifyWebhook',
      run: () => sdk.verifyWebhook(body, header, SECRET),
    });
  }
  return contenders;
}

/** Runs bench/webcrypto-only.ts in a child Node without `process.getBuiltinModule`. */
function measureWithoutNodeCrypto(): Measured[] | null {
  const script = fileURLToPath(new URL('../webcrypto-only.ts', import.meta.url));
  const out = execFileSync(process.execPath, ['--import', 'tsx', script], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? 'null') as Measured[] | null;
}

export async function webhookRows(sdk: SdkWebhooksModule | undefined): Promise<RowResult[]> {
  const results: RowResult[] = [];
  for (const [label, size, runs] of [
    ['1 KB', 1024, 2000],
    ['64 KB', 65536, 150],
  ] as const) {
    const contenders = await contendersFor(size, sdk);
    const measured = await compare(contenders, { rounds: 9, runsPerRound: runs, warmupRuns: 50 });
    results.push({
      row: `4. verifyWebhook (verify + parse) ops/s, ${label} body`,
      command: 'npm run bench -- webhooks',
      table: throughputTable(measured, 'Stripe constructEvent'),
      goals: webhookGoals(measured),
      notes: [],
    });
  }
  results.push(webCryptoOnlyRow(sdk ? measureWithoutNodeCrypto() : null));
  return results;
}

function webCryptoOnlyRow(measured: Measured[] | null): RowResult {
  const goalText = 'where node:crypto is absent, ≥ 2× Stripe constructEventAsync at 1 KB';
  const row = '4b. verifyWebhook with Web Crypto only (child process without process.getBuiltinModule), 1 KB';
  if (!measured) {
    return {
      row,
      command: 'npm run bench -- webhooks',
      table: [['contender']],
      goals: [goal(goalText, null, 'telephony-sdk/webhooks not built yet')],
      notes: [],
    };
  }
  const [stripe, sdk] = measured as [Measured, Measured];
  return {
    row,
    command: 'npm run bench -- webhooks',
    table: throughputTable(measured),
    goals: [
      goal(
        goalText,
        sdk.opsPerSec >= 2 * stripe.opsPerSec,
        `${(sdk.opsPerSec / stripe.opsPerSec).toFixed(2)}× Stripe's Web Crypto path`,
      ),
    ],
    notes: ['floor here is Stripe on Web Crypto: node:crypto is the thing that is missing'],
  };
}

function webhookGoals(measured: Measured[]) {
  const floor = measured[0]!.opsPerSec;
  const sdk = measured.find((m) => m.name.startsWith('telephony-sdk verifyWebhook'));
  const stripe = measured.find((m) => m.name === 'Stripe constructEvent')!;
  return [
    sdk
      ? goal(
          '≥ 0.95× node:crypto + parse (and at least Stripe constructEvent)',
          sdk.opsPerSec / floor >= 0.95 && sdk.opsPerSec >= stripe.opsPerSec,
          `${(sdk.opsPerSec / floor).toFixed(2)}× floor, ${(sdk.opsPerSec / stripe.opsPerSec).toFixed(2)}× Stripe`,
        )
      : goal('≥ 0.95× node:crypto + parse', null, 'telephony-sdk/webhooks not built yet'),
  ];
}
