// The few web platform globals that shared code (contracts, reached from here) uses, declared minimally so
// this package type-checks without the DOM library: they exist in browsers and in Node alike. Packages whose
// tests load Node's types (contracts, formats) get the same names from @types/node instead.
/* eslint-disable no-var -- globals declared with var are also properties of globalThis, as in the platform */
interface TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
}
declare var TextEncoder: { new (): TextEncoder };
interface TextDecoder {
  decode(input?: ArrayBufferView | ArrayBuffer): string;
}
declare var TextDecoder: { new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder };
interface URL {
  readonly origin: string;
  readonly href: string;
}
declare var URL: { new (url: string, base?: string): URL };
declare function atob(data: string): string;
declare function btoa(data: string): string;
interface CryptoKey {
  readonly type: string;
}
interface SubtleCrypto {
  digest(algorithm: string, data: BufferSource): Promise<ArrayBuffer>;
  importKey(
    format: 'spki',
    keyData: BufferSource,
    algorithm: { name: string; hash: string },
    extractable: boolean,
    keyUsages: string[],
  ): Promise<CryptoKey>;
  encrypt(algorithm: { name: string }, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
}
type BufferSource = ArrayBufferView<ArrayBuffer> | ArrayBuffer;
declare var crypto: { readonly subtle: SubtleCrypto; getRandomValues<T extends ArrayBufferView>(array: T): T };
