// The panel's Blob reader thread (blob-reader.ts): reads a batch's Blobs as one and hands the bytes
// back by transfer. Reading a Blob runs on the thread that asked for it (Chromium streams it through
// a data pipe, task by task: ~3 ms per MB here); a transferred ArrayBuffer costs the panel nothing.

interface Ask {
  id: number;
  blobs: Blob[];
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<Ask>) => void) | null;
  postMessage(m: unknown, transfer?: Transferable[]): void;
};

scope.onmessage = (e) => {
  const { id, blobs } = e.data;
  new Blob(blobs).arrayBuffer().then(
    (buf) => scope.postMessage({ id, buf }, [buf]),
    (err: unknown) => scope.postMessage({ id, error: String((err as Error)?.message ?? err) }),
  );
};
