import { createHash } from 'node:crypto';
import { bench, describe } from 'vitest';
import { signPmd } from '@nest/contracts';

/**
 * The pmd signature runs on every call in the browser and the server. Baseline: node's native MD5 over
 * the same input, measured in the same run; the shared JS implementation must stay within a small factor.
 */
const token = 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6';
const pmdValue = 'u-1b2c3d4eOperator13800000001' + '1700000000' + '4765104000';
const ts = 1_763_769_600_000;

describe('pmd signature', () => {
  bench('baseline: node:crypto md5', () => {
    createHash('md5').update(String(ts) + token + pmdValue).digest('hex');
  });
  bench('contracts signPmd (js-md5, timestamp flag)', () => {
    signPmd({ token, pmdValue, timestamp: ts });
  });
});
