// The selected session: its header, its worst finding, and the four views in tabs.

import { useRenderProbe } from '../common/render-probe';
import type { KeyboardEvent } from 'react';
import { LiveEmptyState } from '../capture/NetworkWitness';
import { EventsTable } from '../events/EventsTable';
import { Callout } from '../findings/Callout';
import { FindingsView } from '../findings/FindingsView';
import { useNav, useNavDispatch, useSelection } from '../navigation/NavigationProvider';
import { TABS, type Tab } from '../navigation/state';
import { RequestsSummary } from '../requests/RequestsSummary';
import { RequestsView } from '../requests/RequestsView';
import { SessionHeader } from '../sessions/SessionHeader';
import { Timeline } from '../timeline/Timeline';

const LABEL: Record<Tab, string> = { timeline: 'Timeline', events: 'Events', requests: 'Requests', findings: 'Findings' };

export function SessionDetail({ mode }: { mode: 'devtools' | 'viewer' }) {
  useRenderProbe('session-detail');
  const { view } = useSelection();
  const { tab } = useNav();
  const dispatch = useNavDispatch();
  if (!view) {
    return (
      <div className="empty" data-testid="empty-state">
        {mode === 'viewer'
          ? 'Open a capture: drop an MCP Stream Inspector export (.json) or a HAR file here, or use “Open file…”.'
          : <LiveEmptyState waiting="Waiting for MCP traffic. Use the page: Streamable HTTP requests (POST/GET with text/event-stream) appear here. You can also import a capture or HAR file." />}
      </div>
    );
  }
  const worst = view.findings[0];
  const errors = view.row.errors;
  const onTabKey = (e: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    let to: number | undefined;
    if (e.key === 'ArrowRight') to = (i + 1) % TABS.length;
    else if (e.key === 'ArrowLeft') to = (i + TABS.length - 1) % TABS.length;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = TABS.length - 1;
    if (to !== undefined) {
      e.preventDefault();
      dispatch({ type: 'select-tab', tab: TABS[to]! });
      (e.currentTarget.querySelectorAll('[role=tab]')[to] as HTMLElement | undefined)?.focus();
    }
  };
  return (
    <>
      <SessionHeader />
      {worst && <Callout finding={worst} more={view.findings.length - 1} compact={tab !== 'timeline'} />}
      <div className="tabs" role="tablist" aria-label="Session views" onKeyDown={onTabKey}>
        {TABS.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            id={`msi-tab-${k}`}
            aria-selected={tab === k}
            aria-controls={`msi-panel-${k}`}
            tabIndex={tab === k ? 0 : -1}
            className="tab"
            data-testid={`tab-${k}`}
            onClick={() => dispatch({ type: 'select-tab', tab: k })}
          >
            {LABEL[k]}
            {k === 'events' && <span className="count">{view.rows.count}</span>}
            {k === 'requests' && <span className="count">{view.requests.length}</span>}
            {k === 'findings' && <span className={`count${errors ? ' bad' : ''}`}>{view.findings.length}</span>}
          </button>
        ))}
      </div>
      <div className="tabpanel" role="tabpanel" id={`msi-panel-${tab}`} aria-labelledby={`msi-tab-${tab}`}>
        {tab === 'timeline' && (
          <>
            <Timeline />
            <RequestsSummary />
          </>
        )}
        {tab === 'events' && <EventsTable />}
        {tab === 'requests' && <RequestsView />}
        {tab === 'findings' && <FindingsView />}
      </div>
    </>
  );
}
