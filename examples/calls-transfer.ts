// Transfer a call in progress to another number (attended), then download its recording if any.
import { clientFromEnv } from './env.js';

const client = clientFromEnv();
const call = await client.calls.create({ to: '+14155550123', record: true });
const moved = await client.calls.transfer(call.id, { to: '+14155550199', type: 'attended' });
console.log('transfer', moved);
await client.calls.end(call.id);
const detail = await client.calls.get(call.id);
if (detail.recording_url !== null) {
  const response = await client.calls.downloadRecording(detail);
  console.log(
    'recording',
    response.headers.get('content-type'),
    (await response.arrayBuffer()).byteLength,
    'bytes',
  );
}
