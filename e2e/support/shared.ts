import { inject } from 'vitest';
import type { SharedProduct } from '../global-setup.js';

/**
 * The product this test file drives: the one of its worker (global-setup.ts starts one per worker), so two
 * files running at once never share a product. A file runs whole in one worker.
 */
export function sharedProduct(): SharedProduct {
  const products = inject('products');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return products[((Number.isInteger(worker) && worker > 0 ? worker : 1) - 1) % products.length]!;
}
