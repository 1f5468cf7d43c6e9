/**
 * A call answer's data already serialised: a handler that builds its answer as JSON text from parts it
 * keeps (the device list) answers this, and the call layer puts the text into the envelope as it is
 * instead of serialising an object. The text must be what JSON.stringify of the answer would give.
 */
export class RawJson {
  private encoded: { head: string; bytes: Buffer } | null = null;

  constructor(readonly json: string) {}

  /**
   * The whole answer as bytes: `head` (the envelope's text up to its data) + this text + `}`. Kept for the
   * last head, so that an answer given again (the device list's unchanged page) is not encoded again.
   */
  body(head: string): Buffer {
    if (this.encoded?.head !== head) this.encoded = { head, bytes: Buffer.from(`${head}${this.json}}`, 'utf8') };
    return this.encoded.bytes;
  }
}

const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/**
 * The same text stored one byte per character when every character fits (V8 keeps a string made from
 * parts of a Chinese text, such as a catalogue text's English form filled with a parameter cut from the
 * stored Chinese value, two bytes per character): one such part makes a whole answer two bytes per
 * character, several times slower to measure and encode for the socket. For parts kept and reused.
 */
export function oneByte(text: string): string {
  return BEYOND_LATIN1.test(text) ? text : Buffer.from(text, 'latin1').toString('latin1');
}
