import { afterEach } from 'vitest';
import { scanSuiteLines } from './secret-scan.js';

// Every line a test client logged holds no secret, in any form: checked after every test of the suite.
afterEach(() => {
  scanSuiteLines();
});
