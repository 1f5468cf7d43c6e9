/**
 * A call answer's data already serialised: a handler that builds its answer as JSON text from parts it
 * keeps (the device list) answers this, and the call layer puts the text into the envelope as it is
 * instead of serialising an object. The text must be what JSON.stringify of the answer would give.
 */
export class RawJson {
  constructor(readonly json: string) {}
}
