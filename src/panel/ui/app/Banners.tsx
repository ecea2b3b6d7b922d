// The strips under the toolbar: an error (one at a time), the imported file shown in front of the
// live capture, a file being read (progress bar and Cancel), the analysis catching up, analyzer errors.

import { formatBytes, visible } from '../common/text';
import { useNav, useNavDispatch } from '../navigation/NavigationProvider';
import { useInspector, useStore } from '../store/StoreContext';

export function Banners({ mode }: { mode: 'devtools' | 'viewer' }) {
  const { imported, reading, progress, errors } = useInspector();
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
            {progress ? ` · ${progress.total.toLocaleString('en-US')} records so far` : ''}
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
            {progress.fed.toLocaleString('en-US')} / {progress.total.toLocaleString('en-US')} records{progress.importing ? ' so far' : ''}… findings that need the end of the capture appear when done.
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
}
