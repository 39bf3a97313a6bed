import { describe, expect, it } from 'vitest';
import { APIPromise, mapAnswer } from '../../../src/core/response/api-promise.js';

const response = new Response(null, { status: 201, headers: { 'x-request-id': 'srv_1' } });

describe('APIPromise', () => {
  it('resolves to the data; withResponse() to the data, the response and the request id', async () => {
    const promise = new APIPromise(Promise.resolve({ data: { id: 'c1' }, response, requestId: 'req_1' }));
    expect(await promise).toEqual({ id: 'c1' });
    const both = await promise.withResponse();
    expect(both.data).toEqual({ id: 'c1' });
    expect(both.response.headers.get('x-request-id')).toBe('srv_1');
    expect(both.response.status).toBe(201);
    expect(both.requestId).toBe('req_1');
  });

  it('rejects through await, catch, finally and withResponse alike', async () => {
    const error = new Error('boom');
    const failing = () => new APIPromise<number>(Promise.reject(error));
    await expect(failing()).rejects.toBe(error);
    expect(await failing().catch((e: unknown) => e)).toBe(error);
    let ran = false;
    await expect(
      failing().finally(() => {
        ran = true;
      }),
    ).rejects.toBe(error);
    expect(ran).toBe(true);
    await expect(failing().withResponse()).rejects.toBe(error);
  });

  it('then, catch and finally give plain promises', () => {
    const promise = new APIPromise(Promise.resolve({ data: 1, response, requestId: 'req_1' }));
    expect(promise.then((n) => n + 1)).not.toBeInstanceOf(APIPromise);
    expect(promise.finally(() => {})).not.toBeInstanceOf(APIPromise);
  });

  it('mapAnswer turns the data and keeps the response and the request id', async () => {
    const mapped = mapAnswer(
      Promise.resolve({ data: { data: { call: 'c1' } }, response, requestId: 'req_1' }),
      (body) => body.data.call,
    );
    expect(await mapped).toBe('c1');
    const answered = await mapped.withResponse();
    expect(answered.response).toBe(response);
    expect(answered.requestId).toBe('req_1');
  });
});
