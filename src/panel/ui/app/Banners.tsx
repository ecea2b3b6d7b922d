// The strips under the toolbar: an error (one at a time), the imported file shown in front of the
// live capture, a file being read (progress bar and Cancel), the analysis catching up, analyzer errors.

import { useRenderProbe } from '../common/render-probe';
import { formatBytes, formatCount, visible } from '../common/text';
import { useNav, useNavDispatch } from '../navigation/NavigationProvider';
import { memo } from 'react';
import type { InspectorState } from '../store/inspector-store';
import { useInspectorPart, useStore } from '../store/StoreContext';

type Strips = Pick<InspectorState, 'imported' | 'reading' | 'progress' | 'errors'>;
/**
 * A live capture's backlog below this many records is the next slice's work (records arrive
 * between slices all the time): a strip for it would flicker with every record.
 */
const BACKLOG_SHOWN = 500;
const strips = (st: InspectorState): Strips => {
  const p = st.progress;
  const progress = p && (p.importing || st.reading || p.total - p.fed >= BACKLOG_SHOWN) ? p : undefined;
  return { imported: st.imported, reading: st.reading, progress, errors: st.errors };
};
const sameStrips = (a: Strips, b: Strips) =>
  a.imported?.name === b.imported?.name &&
  a.reading?.read === b.reading?.read && a.reading?.total === b.reading?.total && a.reading?.name === b.reading?.name && !a.reading === !b.reading &&
  a.progress?.fed === b.progress?.fed && a.progress?.total === b.progress?.total && a.progress?.importing === b.progress?.importing && !a.progress === !b.progress &&
  a.errors.length === b.errors.length && a.errors[0] === b.errors[0];

/** Renders when a strip changes (read progress, analysis progress, errors), not per snapshot. */
export const Banners = memo(function Banners({ mode }: { mode: 'devtools' | 'viewer' }) {
  useRenderProbe('banners');
  const { imported, reading, progress, errors } = useInspectorPart(strips, sameStrips);
  const store = useStore();
  const { error } = useNav();
  const dispatch = useNavDispatch();
  return (
    <>
      {error && (
        <div className="banner-error" role="alert" data-testid="error-banner">
          <span>{visible(error)}</span>
          <button type="button" className="linkbtn" onClick={() => dispatch({ type: 'dismiss-error' })} style={{ marginLeft: 'auto' }}>
            Dismiss
          </button>
        </div>
      )}
      {imported && mode === 'devtools' && (
        <div className="banner-info" data-testid="imported-banner">
          <span>{visible(`Showing imported file ${imported.name} — live capture continues in the background.`)}</span>
          <button type="button" className="linkbtn" onClick={() => store.closeImport()} style={{ marginLeft: 'auto' }} data-testid="back-to-live">
            Back to live capture
          </button>
        </div>
      )}
      {reading && (
        <div className="analysis-progress" role="status" data-testid="import-progress" data-read={reading.read} data-total={reading.total ?? ''}>
          {reading.total ? <progress max={reading.total} value={reading.read} /> : <progress />}
          <span>
            {visible(`Reading ${reading.name ?? 'the file'}: ${formatBytes(reading.read) || '0 B'}${reading.total ? ` of ${formatBytes(reading.total)}` : ''}`)}
            {progress ? ` · ${formatCount(progress.total)} records so far` : ''}
          </span>
          <button type="button" className="linkbtn" onClick={() => store.cancelReading()} data-testid="import-cancel">
            Cancel
          </button>
        </div>
      )}
      {progress && !reading && (
        <div className="analysis-progress" role="status" data-testid="analysis-progress" data-fed={progress.fed} data-total={progress.total} data-importing={progress.importing}>
          {progress.importing ? <progress /> : <progress max={progress.total} value={progress.fed} />}
          <span>
            {progress.importing ? 'Reading the file and analysing: ' : 'Analysing '}
            {formatCount(progress.fed)} / {formatCount(progress.total)} records{progress.importing ? ' so far' : ''}… findings that need the end of the capture appear when done.
          </span>
        </div>
      )}
      {errors.length > 0 && (
        <div className="banner-error" role="status">
          {visible(`Analysis error (${errors.length}): ${errors[0]}`)}
        </div>
      )}
    </>
  );
});
