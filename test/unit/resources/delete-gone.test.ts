import { HttpResponse, http } from 'msw';
import { NotFoundError } from 'telephony-sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { detailCall, endedCallBody } from '../../fixtures/calls.js';
import { BASE, BASE_V1, rejection, testClient, tokenHandler } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

beforeEach(() => server.use(tokenHandler()));

const notFound = (v1: boolean) =>
  v1
    ? HttpResponse.json(
        { status: 'error', error: { code: 'not_found', message: 'No such user', status_code: 404 } },
        { status: 404 },
      )
    : HttpResponse.json({ status: 'error', code: 'not_found', message: 'No such call' }, { status: 404 });

/** DELETE answers `first` for the first attempt, then 404 (the resource is gone); counts attempts. */
function deleteThen(url: string, first: () => Response, v1 = false) {
  const seen = { attempts: 0 };
  server.use(
    http.delete(url, () => {
      seen.attempts++;
      return seen.attempts === 1 ? first() : notFound(v1);
    }),
  );
  return seen;
}

const CALL = `${BASE}/v2/calls/call_1`;
const USER = `${BASE_V1}/v1/users/u1`;
/** Answers GET of the call with its detail, ended at `ended_at`; counts the reads. */
function detailEndedAt(ended_at: unknown) {
  const reads = { count: 0 };
  server.use(
    http.get(CALL, () => {
      reads.count++;
      return HttpResponse.json({
        status: 'success',
        data: { call: { ...detailCall('call_1'), status: 'ended', ended_at } },
      });
    }),
  );
  return reads;
}

const lost502 = () =>
  HttpResponse.json({ status: 'error', code: 'bad_gateway', message: 'upstream' }, { status: 502 });

describe('a retried DELETE that finds the resource gone resolves (API.md, Answers the SDK does not trust)', () => {
  it('calls.end: a 502 whose call was ended, then 404 → the ended call, its end time read back with one GET', async () => {
    const seen = deleteThen(CALL, lost502);
    const reads = detailEndedAt('2024-03-01T10:05:00Z');
    await expect(testClient().calls.end('call_1')).resolves.toEqual({
      id: 'call_1',
      status: 'ended',
      ended_at: '2024-03-01T10:05:00Z',
    });
    expect(seen.attempts).toBe(2);
    expect(reads.count).toBe(1);
  });

  it('calls.end: a reset connection, then 404 → resolves with the end time read back', async () => {
    const seen = deleteThen(CALL, () => HttpResponse.error());
    const reads = detailEndedAt('2024-03-01T10:06:00Z');
    await expect(testClient().calls.end('call_1')).resolves.toMatchObject({
      id: 'call_1',
      status: 'ended',
      ended_at: '2024-03-01T10:06:00Z',
    });
    expect(seen.attempts).toBe(2);
    expect(reads.count).toBe(1);
  });

  it('calls.end: a read-back without ended_at is a ResponseValidationError naming the field', async () => {
    deleteThen(CALL, lost502);
    detailEndedAt(null);
    await expect(testClient().calls.end('call_1')).rejects.toMatchObject({
      name: 'ResponseValidationError',
      message: expect.stringContaining('data.call.ended_at'),
    });
  });

  it('users.delete: a 503, then 404 → { deleted: true, id }', async () => {
    const seen = deleteThen(
      USER,
      () =>
        HttpResponse.json(
          { status: 'error', error: { code: 'unavailable', message: 'busy', status_code: 503 } },
          { status: 503 },
        ),
      true,
    );
    await expect(testClient().users.delete('u1')).resolves.toEqual({ deleted: true, id: 'u1' });
    expect(seen.attempts).toBe(2);
  });

  it('a 404 to the first attempt is NotFoundError: nothing was done by this call', async () => {
    const seen = deleteThen(CALL, () => notFound(false));
    const error = await rejection(testClient().calls.end('call_1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(404);
    expect(seen.attempts).toBe(1);
  });

  it('a 404 after a 429 is NotFoundError: the service refused the first attempt before acting', async () => {
    const seen = deleteThen(CALL, () =>
      HttpResponse.json(
        { status: 'error', code: 'rate_limit_exceeded', message: 'slow down' },
        { status: 429, headers: { 'Retry-After': '0' } },
      ),
    );
    expect(await rejection(testClient().calls.end('call_1'))).toBeInstanceOf(NotFoundError);
    expect(seen.attempts).toBe(2);
  });

  it('client.request DELETE keeps NotFoundError after a lost 502 (only calls.end and users.delete know the result)', async () => {
    deleteThen(CALL, lost502);
    const error = await rejection(testClient().request({ method: 'DELETE', path: '/v2/calls/call_1' }));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('the normal answer is unchanged, and reads nothing back', async () => {
    server.use(http.delete(CALL, () => HttpResponse.json(endedCallBody)));
    const reads = detailEndedAt('2030-01-01T00:00:00Z');
    const ended = await testClient().calls.end('call_1');
    expect(ended).toEqual(endedCallBody.data.call);
    expect(reads.count).toBe(0);
  });
});
