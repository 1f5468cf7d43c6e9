import { describe, expect, it } from 'vitest';
import { readExif } from './exif.js';
import { makePhoto } from './images.js';
import { RenderPool } from './render-pool.js';

describe('render pool', () => {
  it('renders the same picture as inline rendering, whether or not the worker could start', async () => {
    const pool = new RenderPool();
    const at = { lat: 22.55, lng: 114.06, alt: 120, takenAt: Date.UTC(2026, 10, 22, 3, 0, 0) };
    try {
      const [a, b] = await Promise.all([pool.render('photo', at), pool.render('panorama', at)]);
      expect(a.equals(makePhoto(at))).toBe(true);
      expect(b[0]).toBe(0xff);
      expect(b[1]).toBe(0xd8);
      expect(readExif(a)?.lat).toBeCloseTo(22.55, 5);
    } finally {
      await pool.stop();
    }
  });
});
