// What src/core may use of its platform, for tsconfig.core.json (which has no DOM, chrome or Node
// types): the few web APIs every browser and Node 20 provide. Adding to this list is a decision:
// the core runs in the panel, the standalone viewer, the CLI and the tests.
declare class URL {
  constructor(url: string, base?: string | URL);
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly hostname: string;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare function atob(data: string): string;
