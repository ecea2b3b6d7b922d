// The standalone viewer: the same UI as the DevTools panel, opening an export (own JSON or HAR)
// from a file picker, drag-and-drop, or `?src=<url>` (the demo serves an export to it). Settings
// and column widths in localStorage, the view in sessionStorage (a reload of the page keeps it).

import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createAnalyzer, optionsFromSettings } from '../core';
import { InspectorApp } from './ui/app/InspectorApp';
import { sessionViewStorage, VIEW_KEY } from './ui/navigation/persist';
import { importWithCore, ImportError, openStream } from './ui/sources/importer';
import { createLocalStorageAdapter } from './ui/settings/settings';
import { createStaticSource } from './ui/sources/static-source';
import type { InspectorSource } from './ui/store/types';

const storage = createLocalStorageAdapter();
const importFile = importWithCore;
const analyzerFactory = (s: Parameters<typeof optionsFromSettings>[0]) => createAnalyzer(optionsFromSettings(s));

function srcParam(): URL | undefined {
  const raw = new URLSearchParams(location.search).get('src');
  if (!raw) return undefined;
  try {
    const u = new URL(raw, location.href);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === location.protocol ? u : undefined;
  } catch {
    return undefined;
  }
}

// The view is kept per file: a reload of the page restores it, another file opens fresh.
const viewStorage = sessionViewStorage(`${VIEW_KEY}:${srcParam()?.href ?? ''}`);

function Viewer() {
  const [source, setSource] = useState<InspectorSource>(() => createStaticSource([], undefined));
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    const u = srcParam();
    if (!u) return;
    const name = decodeURIComponent(u.pathname.split('/').pop() || u.href);
    void (async () => {
      try {
        performance.mark('msi:fetch');
        const res = await fetch(u);
        if (!res.ok) throw new ImportError(`HTTP ${res.status} ${res.statusText}`.trim());
        if (!res.body) throw new ImportError('the response has no body');
        const length = Number(res.headers.get('content-length'));
        // The body is split into records as it arrives: the first screen shows the first records
        // while the rest of the file is still being read, parsed and analysed.
        const imp = await openStream(res.body, name, importFile, Number.isFinite(length) && length > 0 ? length : undefined);
        performance.mark('msi:first-records');
        void imp.done.then(() => performance.mark('msi:all-records'), () => {});
        setSource(imp.source);
        document.title = `${name} — MCP Stream Inspector`;
        imp.done.catch((e: unknown) => {
          setSource(createStaticSource([], undefined));
          setError(`Could not open ${u.href}: ${(e as Error).message}`);
        });
      } catch (e) {
        setError(`Could not open ${u.href}: ${(e as Error).message}`);
      }
    })();
  }, []);
  return (
    <InspectorApp
      source={source}
      analyzerFactory={analyzerFactory}
      storage={storage}
      {...(viewStorage ? { viewStorage } : {})}
      theme="auto"
      mode="viewer"
      importFile={importFile}
      {...(error ? { error } : {})}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Viewer />
  </StrictMode>,
);
