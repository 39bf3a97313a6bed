export { TelephonyError } from '../shared/telephony-error.js';
export { signWebhook } from './signature.js';
