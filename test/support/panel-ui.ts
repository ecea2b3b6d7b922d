// Additive helpers for the panel e2e tests (test/e2e/panel-*.test.ts): read what the inspector UI
// shows in the DOM, click by data-testid, switch the DevTools theme, take screenshots.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from './browser';
import type { Cdp } from './cdp';
import { devtoolsFrontend } from './devtools';
import { waitFor } from './wait';

export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../test-artifacts/screenshots');

/** Something that evaluates in a page running the inspector UI (panel iframe or viewer tab). */
export interface UiTarget {
  eval<T = any>(expression: string): Promise<T>;
}

export function cdpTarget(cdp: Cdp, sessionId: string): UiTarget {
  return { eval: (e) => cdp.evaluate(sessionId, e) };
}

/** Click the element with this data-testid (the first one); throws when it is missing. */
export async function clickTestId(t: UiTarget, testId: string, nth = 0): Promise<void> {
  await waitFor(
    () =>
      t.eval<boolean>(`(() => { const el = document.querySelectorAll(${JSON.stringify(`[data-testid="${testId}"]`)})[${nth}];
        if (!el) return false; el.click(); return true; })()`),
    { timeoutMs: 10_000, message: `click [data-testid=${testId}]` },
  );
}

export async function showTab(t: UiTarget, tab: 'timeline' | 'events' | 'requests' | 'findings'): Promise<void> {
  await clickTestId(t, `tab-${tab}`);
  await waitFor(() => t.eval(`document.querySelector('[data-testid="tab-${tab}"]')?.getAttribute('aria-selected') === 'true'`), {
    message: `tab ${tab} selected`,
  });
}

export interface UiState {
  sessions: { key: string; lossless: string; selected: boolean; text: string }[];
  worst: { code: string; text: string; onFirstScreen: boolean } | null;
  lossyDetail: string | null;
  summary: { id: string; verdict: string; text: string }[];
  header: string | null;
}

/** What the first screen (timeline tab) shows. */
export function uiState(t: UiTarget): Promise<UiState> {
  return t.eval<UiState>(`(() => {
    const q = (s) => [...document.querySelectorAll(s)];
    const w = document.querySelector('[data-testid=worst-finding]');
    const r = w?.getBoundingClientRect();
    return {
      sessions: q('[data-testid=session-row]').map((e) => ({ key: e.dataset.sessionKey, lossless: e.dataset.lossless, selected: e.getAttribute('aria-selected') === 'true', text: e.textContent })),
      worst: w ? { code: w.dataset.code, text: w.textContent, onFirstScreen: !!r && r.height > 0 && r.top >= 0 && r.top < innerHeight - 20 } : null,
      lossyDetail: document.querySelector('[data-testid=lossy-detail]')?.textContent ?? null,
      summary: q('[data-testid=summary-request-row]').map((e) => ({ id: e.dataset.requestId, verdict: e.querySelector('[data-verdict]')?.dataset.verdict, text: e.textContent })),
      header: document.querySelector('[data-testid=session-header]')?.textContent ?? null,
    };
  })()`);
}

/** Requests view: each row's verdict cell. */
export async function requestVerdicts(t: UiTarget): Promise<{ id: string; verdict: string; text: string }[]> {
  await showTab(t, 'requests');
  return t.eval(`[...document.querySelectorAll('[data-testid=request-row]')].map((row) => {
    const c = row.querySelector('[data-testid^="verdict-"]');
    return { id: c?.dataset.testid.slice('verdict-'.length), verdict: c?.dataset.verdict, text: row.textContent };
  })`);
}

/** Findings view: each row's code and text. */
export async function findingRows(t: UiTarget): Promise<{ code: string; text: string }[]> {
  await showTab(t, 'findings');
  return t.eval(`[...document.querySelectorAll('[data-testid=finding-row]')].map((e) => ({ code: e.dataset.code, text: e.textContent }))`);
}

export interface SnapSummary {
  codes: string[];
  verdicts: string[];
  calls: string[];
}
const SUMMARY = `(() => { const s = globalThis.__MSI_UI__.snapshot();
    const reqs = Object.values(s.requests).flat();
    return { codes: [...new Set(s.findings.map((f) => f.code))].sort(),
             verdicts: reqs.map((r) => r.method + ':' + r.verdict).sort(),
             calls: reqs.filter((r) => r.method === 'tools/call').map((r) => r.verdict) }; })()`;

/** Codes (sorted, unique) and request verdicts from __MSI_UI__.snapshot(). */
export function snapSummary(t: UiTarget): Promise<SnapSummary> {
  return t.eval(SUMMARY);
}

/**
 * The summary when no progress banner is shown (null while one is): read in the same task as the
 * banner, so the two agree. Read in two evaluations, a file's first publication could come
 * between them: no banner yet (the empty page before the file), then a snapshot of its first
 * records (the viewer's `?src=` test read it so once in CI).
 */
export function settledSummary(t: UiTarget): Promise<SnapSummary | null> {
  return t.eval(`document.querySelector('[data-testid=import-progress], [data-testid=analysis-progress]') ? null : ${SUMMARY}`);
}

/** Set DevTools' own theme ('default' = light, 'dark') through the front-end's settings. */
export async function setDevtoolsTheme(browser: Browser, theme: 'default' | 'dark'): Promise<string> {
  const fe = await devtoolsFrontend(browser);
  const s = await browser.cdp.attach(fe.targetId);
  // retried: right after start-up the front-end may not have created its settings yet
  await waitFor(
    () =>
      browser.cdp.evaluate(
        s,
        `(async () => { const C = await import('./core/common/common.js'); C.Settings.Settings.instance().moduleSetting('ui-theme').set(${JSON.stringify(theme)}); return true; })()`,
      ),
    { timeoutMs: 20_000, message: `DevTools theme ${theme}` },
  );
  return s;
}

/** PNG of a target (its session) into test-artifacts/screenshots/<name>.png; returns the path. */
export async function screenshot(cdp: Cdp, sessionId: string, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const shot = await cdp.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId);
  const p = join(SCREENSHOT_DIR, `${name}.png`);
  writeFileSync(p, Buffer.from(shot.data, 'base64'));
  return p;
}

/** Set the files of an <input type=file> (by CSS selector) in a session through CDP DOM. */
export async function setInputFiles(cdp: Cdp, sessionId: string, selector: string, files: string[]): Promise<void> {
  await cdp.send('DOM.enable', {}, sessionId);
  const doc = await cdp.send<{ root: { nodeId: number } }>('DOM.getDocument', { depth: 0 }, sessionId);
  const input = await cdp.send<{ nodeId: number }>('DOM.querySelector', { nodeId: doc.root.nodeId, selector }, sessionId);
  if (!input.nodeId) throw new Error(`no ${selector}`);
  await cdp.send('DOM.setFileInputFiles', { nodeId: input.nodeId, files }, sessionId);
}

/** Dock DevTools ('right', 'bottom', 'undocked') through the front-end's DockController. */
export async function setDock(browser: Browser, side: 'right' | 'bottom' | 'undocked'): Promise<void> {
  const fe = await devtoolsFrontend(browser);
  const s = await browser.cdp.attach(fe.targetId);
  await waitFor(
    () =>
      browser.cdp.evaluate(
        s,
        `(async () => { const L = await import('./ui/legacy/legacy.js'); L.DockController.DockController.instance().setDockSide(${JSON.stringify(side)}); return true; })()`,
      ),
    { timeoutMs: 20_000, message: `DevTools dock ${side}` },
  );
}

/** Dispatch a keydown on the first element matching `selector` (focused first), as a key press would. */
export async function keyOn(t: UiTarget, selector: string, key: string, init: { shiftKey?: boolean; ctrlKey?: boolean; metaKey?: boolean } = {}): Promise<void> {
  await waitFor(
    () =>
      t.eval<boolean>(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return false; el.focus();
        el.dispatchEvent(new KeyboardEvent('keydown', { key: ${JSON.stringify(key)}, bubbles: true, cancelable: true, ...${JSON.stringify(init)} })); return true; })()`),
    { timeoutMs: 10_000, message: `key ${key} on ${selector}` },
  );
}

/** A right click (contextmenu event) on the first element matching `selector`, at its centre. */
export async function rightClick(t: UiTarget, selector: string): Promise<void> {
  await waitFor(
    () =>
      t.eval<boolean>(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return false; const r = el.getBoundingClientRect();
        el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2, clientX: r.left + Math.min(60, r.width / 2), clientY: r.top + r.height / 2 })); return true; })()`),
    { timeoutMs: 10_000, message: `right click on ${selector}` },
  );
}

/** Reload the panel's page (what "Reload frame" does) and wait for the UI to be back. */
export async function reloadPanel(panel: UiTarget): Promise<void> {
  await panel.eval('(window.__msiBeforeReload = true, setTimeout(() => location.reload(), 0), true)');
  await waitFor(() => panel.eval(`!window.__msiBeforeReload && typeof globalThis.__MSI_UI__ === 'object' && document.readyState === 'complete'`).catch(() => false), {
    timeoutMs: 20_000,
    message: 'panel reloaded',
  });
}
