import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** scripts/side-by-side.mjs with small node programs as the commands. */
const script = path.join(import.meta.dirname, 'side-by-side.mjs');
const node = (code: string) => `"${process.execPath}" -e "${code}"`;

function sideBySide(...commands: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...commands], { encoding: 'utf8' }, (err, stdout) =>
      resolve({ code: err ? Number(err.code) : 0, out: stdout }),
    );
  });
}

describe('side by side', () => {
  it('runs the commands at once, prints the first live and another whole when it ends, and passes when all pass', async () => {
    // The live command ends only once the other has written its file: they run at the same time.
    const dir = mkdtempSync(path.join(tmpdir(), 'side-by-side-'));
    const flag = path.join(dir, 'kept-ran').replaceAll('\\', '/');
    try {
      // Its two lines in one write: the other command's output is printed when that command ends, which can
      // fall between two writes of the live command (the lines of each stay whole, the order between them not).
      const live = node(`const t = setInterval(() => { if (require('fs').existsSync('${flag}')) { clearInterval(t); process.stdout.write('live 1\\nlive 2\\n'); } }, 20)`);
      const kept = node(`require('fs').writeFileSync('${flag}', ''); console.log('kept 1'); console.log('kept 2')`);
      const { code, out } = await sideBySide(live, kept);
      expect(code).toBe(0);
      expect(out).toContain('live 1\nlive 2\n');
      expect(out).toContain('\nkept 1\nkept 2\n');
      expect(out.match(/^ok: .*\(\d+ s\)$/gm)).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails when one command fails, after all have ended', async () => {
    const { code, out } = await sideBySide(node("console.log('done')"), node("console.log('broken'); process.exit(3)"));
    expect(code).toBe(1);
    expect(out).toContain('done');
    expect(out).toMatch(/^FAILED: .*broken.*$/m);
  });
});
