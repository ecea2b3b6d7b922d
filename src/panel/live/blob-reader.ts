// Where the panel reads the bytes of the Blobs a batch of records holds (the large reads of a
// stream: relay/delivery.ts, hook/fetch.ts): in a worker of the panel's own, which hands the bytes
// back by transfer. Reading 50 MB of Blobs on the panel's thread took it 160 ms (Chromium 156,
// read as one Blob; 314 ms as 50 separate reads), as long as decoding them; through the worker
// the panel's thread pays ~2 ms (docs/benchmarks.md, row 1c). The records are then decoded on the
// panel's thread as before: receiving a worker's decoded strings costs as much as decoding them.
//
// Any failure of the worker (it cannot start, it errors, its answer does not match what was asked,
// or it does not answer in time) falls back to reading on the panel's thread: the bytes are read
// either way, and the batch queue behind a read is never left waiting.

import { cutParts, readBlobs, type BlobRead } from '../../extension/wire/decode';


/** The part of Worker this reader uses (tests pass a fake). */
export interface WorkerLike {
  postMessage(m: unknown): void;
  onmessage: ((e: MessageEvent) => void) | null;
  onerror: ((e: unknown) => void) | null;
  onmessageerror: ((e: unknown) => void) | null;
  terminate(): void;
}

interface Pending {
  blobs: readonly Blob[];
  resolve(parts: Uint8Array[]): void;
  reject(e: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * A read the worker has not answered after this long is read here instead (the batch queue waits
 * for it: a lost answer must not stall the panel). A 16 MB batch takes the worker ~50 ms.
 */
export const WORKER_READ_TIMEOUT_MS = 10_000;

export interface BlobReader {
  read: BlobRead;
  /** Batches whose Blobs the worker read, and those read on this thread (e2e tests, diagnostics). */
  stats(): { worker: number; here: number };
}

/** A reader that uses the worker `make()` returns (made at the first read), else reads here. */
export function createBlobReader(make: () => WorkerLike, fallback: BlobRead = readBlobs, timeoutMs = WORKER_READ_TIMEOUT_MS): BlobReader {
  let worker: WorkerLike | null | undefined;
  let next = 0;
  const pending = new Map<number, Pending>();
  const counts = { worker: 0, here: 0 };

  const here = (p: Pending) => (counts.here++, fallback(p.blobs).then(p.resolve, p.reject));
  /** The pending read `id`, no longer pending. */
  function take(id: number): Pending | undefined {
    const p = pending.get(id);
    if (!p) return undefined;
    pending.delete(id);
    clearTimeout(p.timer);
    return p;
  }
  function giveUp() {
    worker?.terminate();
    worker = null;
    for (const id of [...pending.keys()]) void here(take(id)!);
  }
  function start(): WorkerLike | null {
    if (worker !== undefined) return worker;
    try {
      const w = make();
      w.onmessage = (e: MessageEvent) => {
        const m = e.data as { id?: unknown; buf?: unknown; error?: unknown } | null;
        const p = typeof m?.id === 'number' ? take(m.id) : undefined;
        if (!p) return;
        const total = p.blobs.reduce((n, b) => n + b.size, 0);
        if (!(m!.buf instanceof ArrayBuffer) || m!.buf.byteLength !== total) return void here(p);
        counts.worker++;
        p.resolve(cutParts(new Uint8Array(m!.buf), p.blobs));
      };
      // An answer that cannot be received would leave its read waiting: give the worker up.
      w.onerror = w.onmessageerror = giveUp;
      worker = w;
    } catch {
      worker = null;
    }
    return worker;
  }

  const read: BlobRead = (blobs) =>
    new Promise<Uint8Array[]>((resolve, reject) => {
      if (blobs.length === 0) return resolve([]);
      const p: Pending = { blobs, resolve, reject };
      const w = start();
      if (!w) return void here(p);
      const id = ++next;
      pending.set(id, p);
      p.timer = setTimeout(() => {
        const late = take(id);
        if (late) void here(late);
      }, timeoutMs);
      try {
        w.postMessage({ id, blobs });
      } catch {
        void here(take(id)!);
      }
    });
  return { read, stats: () => ({ ...counts }) };
}

/** The panel's reader: a module worker of this extension (blob-reader.worker.ts). */
export function panelBlobReader(): BlobReader {
  return createBlobReader(() => new Worker(new URL('./blob-reader.worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike);
}
