import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openContexts } from './browser.js';

/**
 * When an e2e test fails, what its pages showed: the address, the messages, notifications and dialogs on
 * screen, and a screenshot (under the OS temp dir). A CI log then tells why a click had no effect.
 */
afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  const dir = join(tmpdir(), 'nest-e2e-failures');
  mkdirSync(dir, { recursive: true });
  const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  let n = 0;
  for (const context of openContexts) {
    for (const page of context.pages()) {
      const file = join(dir, `${name}-${++n}.png`);
      try {
        const shown = await page.evaluate(() =>
          Array.from(document.querySelectorAll('.ant-message-notice, .ant-notification-notice, .ant-modal'))
            .map((e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
            .filter(Boolean),
        );
        await page.screenshot({ path: file, timeout: 10_000 });
        console.log(`[e2e failure] ${ctx.task.name}\n  page ${n}: ${page.url()}\n  on screen: ${shown.length ? shown.join(' | ') : '(no message, notification or dialog)'}\n  screenshot: ${file}`);
      } catch (err) {
        console.log(`[e2e failure] page ${n} could not be read: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
});
