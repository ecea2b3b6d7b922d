import { describe, expect, it } from 'vitest';
import { createBlobReader, type WorkerLike } from './blob-reader';

const bytes = (...xs: number[]) => new Blob([new Uint8Array(xs)]);
const arr = (parts: Uint8Array[]) => parts.map((p) => Array.from(p));

/** A worker that answers as blob-reader.worker.ts does, or as `answer` says. */
function fakeWorker(answer?: (blobs: Blob[]) => Promise<unknown> | 'error') {
  const made: { w: WorkerLike; asked: number; terminated: boolean }[] = [];
  const make = () => {
    const rec = { asked: 0, terminated: false } as { w: WorkerLike; asked: number; terminated: boolean };
    const w: WorkerLike = {
      onmessage: null,
      onerror: null,
      onmessageerror: null,
      terminate: () => void (rec.terminated = true),
      postMessage(m: unknown) {
        rec.asked++;
        const { id, blobs } = m as { id: number; blobs: Blob[] };
        const a = answer ? answer(blobs) : new Blob(blobs).arrayBuffer().then((buf) => ({ buf }));
        if (a === 'error') return void queueMicrotask(() => w.onerror?.(new Error('worker died')));
        void a.then((x) => w.onmessage?.({ data: { id, ...(x as object) } } as MessageEvent));
      },
    };
    rec.w = w;
    made.push(rec);
    return w;
  };
  return { make, made };
}

describe('the panel\'s Blob reader (a worker, with a fallback on the panel\'s thread)', () => {
  it('reads through one worker, made at the first read, and cuts the bytes back into each Blob\'s', async () => {
    const f = fakeWorker();
    let here = 0;
    const reader = createBlobReader(f.make, async () => (here++, []));
    const read = reader.read;
    expect(f.made).toHaveLength(0);
    expect(arr(await read([bytes(1, 2), bytes(), bytes(3)]))).toEqual([[1, 2], [], [3]]);
    expect(arr(await read([bytes(4)]))).toEqual([[4]]);
    expect(f.made).toHaveLength(1);
    expect(f.made[0]!.asked).toBe(2);
    expect(reader.stats()).toEqual({ worker: 2, here: 0 });
    expect(here).toBe(0);
  });

  it('answers batches read at once each with its own bytes, whatever order the worker answers in', async () => {
    const order: (() => void)[] = [];
    const f = fakeWorker((blobs) => new Promise((res) => order.push(() => void new Blob(blobs).arrayBuffer().then((buf) => res({ buf })))));
    const read = createBlobReader(f.make).read;
    const a = read([bytes(1)]);
    const b = read([bytes(2, 2)]);
    order[1]!();
    order[0]!();
    expect(arr(await a)).toEqual([[1]]);
    expect(arr(await b)).toEqual([[2, 2]]);
  });

  it('reads on the panel\'s thread when the worker cannot start, errors, or answers with the wrong bytes', async () => {
    const cannot = createBlobReader(() => {
      throw new Error('no workers here');
    }).read;
    expect(arr(await cannot([bytes(7)]))).toEqual([[7]]);

    const wrong = fakeWorker(async () => ({ buf: new ArrayBuffer(5) }));
    expect(arr(await createBlobReader(wrong.make).read([bytes(1, 2)]))).toEqual([[1, 2]]);
    const refused = fakeWorker(async () => ({ error: 'NotReadableError' }));
    expect(arr(await createBlobReader(refused.make).read([bytes(3)]))).toEqual([[3]]);

    const dies = fakeWorker(() => 'error');
    const reader = createBlobReader(dies.make);
    const read = reader.read;
    const [x, y] = await Promise.all([read([bytes(1)]), read([bytes(2)])]);
    expect([arr(x), arr(y)]).toEqual([[[1]], [[2]]]);
    expect(dies.made[0]!.terminated).toBe(true);
    // A dead worker is not made again: later reads happen here.
    expect(arr(await read([bytes(3)]))).toEqual([[3]]);
    expect(dies.made).toHaveLength(1);
    expect(reader.stats()).toEqual({ worker: 0, here: 3 });
  });

  it('reads here a batch the worker has not answered in time, and ignores the late answer', async () => {
    let late: (() => Promise<void>) | undefined;
    const slow = fakeWorker((blobs) => new Promise((res) => (late = () => new Blob(blobs).arrayBuffer().then((buf) => res({ buf })))));
    const reader = createBlobReader(slow.make, undefined, 20);
    expect(arr(await reader.read([bytes(5, 6)]))).toEqual([[5, 6]]);
    await late!(); // the answer is handed over in a microtask after this: done by the next task
    await new Promise((r) => setTimeout(r, 0));
    expect(reader.stats()).toEqual({ worker: 0, here: 1 });
  });

  it('rejects when the bytes cannot be read at all (the caller marks the chunks lost)', async () => {
    const read = createBlobReader(
      () => {
        throw new Error('no workers');
      },
      () => Promise.reject(new Error('NotReadableError')),
    ).read;
    await expect(read([bytes(1)])).rejects.toThrow('NotReadableError');
  });
});
