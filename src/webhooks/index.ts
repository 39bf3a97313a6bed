export { TelephonyError } from '../shared/telephony-error.js';
