// contracts/password.ts names the DOM type SubtleCrypto; the server compiles without the DOM lib, so map
// it to Node's Web Crypto type (the same API: Node 20 implements Web Crypto).
import type { webcrypto } from 'node:crypto';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface SubtleCrypto extends webcrypto.SubtleCrypto {}
}
