// Transfer a call in progress to another number (attended), then download its recording if any.
import { NotFoundError } from 'telephony-sdk';
import { clientFromEnv } from './env.js';

const client = await clientFromEnv();
const call = await client.calls.create({ to: '+14155550123', record: true });
const moved = await client.calls.transfer(call.id, { to: '+14155550199', type: 'attended' });
console.log('transfer', moved);
await client.calls.end(call.id);
const detail = await client.calls.get(call.id);
if (detail.recording_url !== null) {
  try {
    const response = await client.calls.downloadRecording(detail);
    console.log('recording', (await response.arrayBuffer()).byteLength, 'bytes');
  } catch (error) {
    // The sandbox names recording_url but serves no audio.
    if (!(error instanceof NotFoundError)) throw error;
    console.log('recording not available:', error.message);
  }
}
