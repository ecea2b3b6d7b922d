// Native functions captured when the hook installs (document_start, before any page script), so
// that later page patches of globals do not change what the hook does, and the helper that makes
// the hook's replacements look native to `Function.prototype.toString`.

// Reflect.apply / Reflect.construct are looked up once, here: a page that later replaces them
// (to spy on the arguments, e.g. to steal the hook's MessagePort, or by breaking them) must neither
// see what the hook passes nor make the page's own fetch fail.
const apply = Reflect.apply;
const construct = Reflect.construct;

export const N = {
  apply,
  construct,
  arrayPush: Array.prototype.push,
  fetch: window.fetch,
  Response: window.Response,
  Headers: window.Headers,
  ReadableStream: window.ReadableStream,
  TextDecoder: window.TextDecoder,
  textDecode: TextDecoder.prototype.decode,
  Uint8Array: window.Uint8Array,
  /** %TypedArray%.prototype.buffer getter. */
  typedArrayBuffer: Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype) as object, 'buffer')!.get!,
  /** ArrayBuffer.prototype.byteLength getter. */
  arrayBufferByteLength: Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')!.get!,
  /** %TypedArray%.prototype.byteLength getter. */
  typedArrayByteLength: Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype) as object, 'byteLength')!.get!,
  /** %TypedArray%.prototype.byteOffset getter. */
  typedArrayByteOffset: Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype) as object, 'byteOffset')!.get!,
  MessageChannel: window.MessageChannel,
  setTimeout: window.setTimeout.bind(window),
  perfNow: performance.now.bind(performance),
  timeOrigin: performance.timeOrigin,
  promiseThen: Promise.prototype.then,
  fnToString: Function.prototype.toString,
  portPost: MessagePort.prototype.postMessage,
  portStart: MessagePort.prototype.start,
  portClose: MessagePort.prototype.close,
  windowPost: window.postMessage.bind(window),
  addEventListener: EventTarget.prototype.addEventListener,
  removeEventListener: EventTarget.prototype.removeEventListener,
  // The synchronous channel to the relay (emitter.ts).
  EventTarget: window.EventTarget,
  FocusEvent: window.FocusEvent,
  MessageEvent: window.MessageEvent,
  dispatchEvent: EventTarget.prototype.dispatchEvent,
  headersGet: Headers.prototype.get,
  headersForEach: Headers.prototype.forEach,
  streamGetReader: ReadableStream.prototype.getReader,
  byobRelease: ReadableStreamBYOBReader.prototype.releaseLock,
  streamCancel: ReadableStream.prototype.cancel,
  readerRead: ReadableStreamDefaultReader.prototype.read,
  readerCancel: ReadableStreamDefaultReader.prototype.cancel,
  requestClone: Request.prototype.clone,
  requestText: Request.prototype.text,
  blobText: Blob.prototype.text,
  Blob: window.Blob,
  jsonParse: JSON.parse,
  // Fault injection (issue 14): what the hook uses for a faulted response, captured at install.
  Promise: window.Promise,
  WeakRef: window.WeakRef,
  TypeError: window.TypeError,
  streamTee: ReadableStream.prototype.tee,
  /** Object.create(null) without a global lookup at call time. */
  objectCreate: Object.create,
  defineProperty: Object.defineProperty,
  hasOwn: Object.hasOwn,
} as const;

function getter<T>(proto: object, name: string): (this: T) => unknown {
  return Object.getOwnPropertyDescriptor(proto, name)!.get! as (this: T) => unknown;
}
export const G = {
  resBody: getter<Response>(Response.prototype, 'body'),
  resBodyUsed: getter<Response>(Response.prototype, 'bodyUsed'),
  resHeaders: getter<Response>(Response.prototype, 'headers'),
  resStatus: getter<Response>(Response.prototype, 'status'),
  resStatusText: getter<Response>(Response.prototype, 'statusText'),
  resUrl: getter<Response>(Response.prototype, 'url'),
  resRedirected: getter<Response>(Response.prototype, 'redirected'),
  resType: getter<Response>(Response.prototype, 'type'),
  reqUrl: getter<Request>(Request.prototype, 'url'),
  reqMethod: getter<Request>(Request.prototype, 'method'),
  reqHeaders: getter<Request>(Request.prototype, 'headers'),
  reqBody: getter<Request>(Request.prototype, 'body'),
  reqBodyUsed: getter<Request>(Request.prototype, 'bodyUsed'),
  reqSignal: getter<Request>(Request.prototype, 'signal'),
  /** What the relay posts on the private port is read with the native getter. */
  msgData: getter<MessageEvent>(MessageEvent.prototype, 'data'),
};

export function call<R>(fn: unknown, thisArg: unknown, ...args: unknown[]): R {
  return apply(fn as (...a: unknown[]) => unknown, thisArg, args) as R;
}

export const now = (): number => N.timeOrigin + N.perfNow();

/** Captured at install: a page could replace the global `Symbol` later. */
const ITERATOR: typeof Symbol.iterator = Symbol.iterator;

/**
 * `items` as an iterable built only of own properties, for a native that takes a sequence
 * (postMessage's transfer list, the Blob constructor's parts): converting an array would look up
 * Array.prototype[Symbol.iterator] and %ArrayIteratorPrototype%.next, which a page can patch to see
 * or disturb what the hook passes.
 */
export function ownIterable<T>(items: readonly T[]): Iterable<T> {
  let i = 0;
  const n = items.length;
  return {
    [ITERATOR]: () => ({
      next: () => (i < n ? { value: items[i++]!, done: false } : { value: undefined, done: true }),
    }),
  } as unknown as Iterable<T>;
}

// replacement -> the native it stands for
const disguised = new WeakMap<object, object>();

/** Make `replacement` print like `original` in Function.prototype.toString. */
export function disguise<T extends object>(replacement: T, original: object): T {
  disguised.set(replacement, original);
  return replacement;
}

/** Install the toString patch (itself disguised as the native toString). */
export function installToStringMask(): void {
  const nativeToString = N.fnToString;
  const patched = {
    toString(this: unknown): string {
      const target = (typeof this === 'function' || typeof this === 'object') && this !== null ? disguised.get(this) : undefined;
      return apply(nativeToString, target ?? this, []) as string;
    },
  }.toString;
  disguise(patched, nativeToString);
  Object.defineProperty(Function.prototype, 'toString', {
    ...Object.getOwnPropertyDescriptor(Function.prototype, 'toString'),
    value: patched,
  });
}

/** Replace a method on a prototype, keeping the descriptor's flags and a native look. */
export function patchMethod(proto: object, name: string, replacement: (...a: never[]) => unknown): void {
  const d = Object.getOwnPropertyDescriptor(proto, name)!;
  disguise(replacement, d.value as object);
  Object.defineProperty(proto, name, { ...d, value: replacement });
}

/** Replace a getter on a prototype, keeping the descriptor's flags and a native look. */
export function patchGetter(proto: object, name: string, get: () => unknown): void {
  const d = Object.getOwnPropertyDescriptor(proto, name)!;
  disguise(get, d.get!);
  Object.defineProperty(proto, name, { ...d, get });
}
