// Import (the file input, a drop on the panel) and export (a download of what is shown).

import { useCallback, useState, type DragEvent } from 'react';
import { exportCapture } from '../../../export';
import { downloadText } from '../common/download';
import { useNavDispatch } from '../navigation/NavigationProvider';
import { importWithCore, startFileImport, type ImportFn } from '../sources/importer';
import type { InspectorStore } from '../store/inspector-store';
import type { ExportKind } from '../store/types';

export function useExport(store: InspectorStore) {
  return useCallback(
    (kind: ExportKind, sessionKey?: string) =>
      exportCapture(kind, {
        records: store.records(),
        snapshot: store.flush(),
        ...(sessionKey !== undefined ? { sessionKey } : {}),
        ...(store.label() !== undefined ? { source: store.label()! } : {}),
      }),
    [store],
  );
}

export function useFiles(store: InspectorStore, importFn: ImportFn = importWithCore) {
  const dispatch = useNavDispatch();
  const doExport = useExport(store);
  const [drag, setDrag] = useState(false);
  const fail = (name: string, e: unknown) => dispatch({ type: 'show-error', text: `Could not open ${name}: ${((e as Error)?.message ?? String(e)).replace(`${name}: `, '')}` });
  const openFile = async (file: File) => {
    try {
      // Read as it arrives: the first records show while the rest is read and parsed.
      const imp = await startFileImport(file, importFn);
      dispatch({ type: 'dismiss-error' });
      store.openImport(imp, file.name, (e) => fail(file.name, e));
    } catch (e) {
      fail(file.name, e);
    }
  };
  const exportDownload = (kind: ExportKind, sessionKey: string | undefined) => {
    try {
      const r = doExport(kind, sessionKey);
      downloadText(r.text, r.filename, r.mime);
    } catch (e) {
      dispatch({ type: 'show-error', text: `Export failed: ${(e as Error).message}` });
    }
  };
  const dropProps = {
    onDragOver: (e: DragEvent) => {
      if (e.dataTransfer?.types?.includes('Files')) {
        e.preventDefault();
        setDrag(true);
      }
    },
    onDragLeave: (e: DragEvent) => {
      if (e.currentTarget === e.target) setDrag(false);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDrag(false);
      const f = e.dataTransfer?.files?.[0];
      if (f) void openFile(f);
    },
  };
  return { openFile, exportDownload, doExport, drag, dropProps };
}
