import { describe, expect, it } from 'vitest';
import { classifySender } from './senders';

const ID = 'dbokkhaekogpoolmompdlkkbellaafbk';
const PANEL = `chrome-extension://${ID}/src/panel/panel.html`;

// The sender shapes below are what Chromium 156 gave the background for the panel's port
// (logged from chrome.runtime.onConnect in the e2e browser), in each DevTools layout.
describe('classifySender', () => {
  it('the panel docked (no tab), undocked (the DevTools window, tab id -1) and docked again (a positive tab id) is an extension page', () => {
    expect(classifySender({ id: ID, url: PANEL, origin: `chrome-extension://${ID}` }, ID)).toBe('extension-page');
    expect(classifySender({ id: ID, url: PANEL, origin: `chrome-extension://${ID}`, tab: { id: -1 } }, ID)).toBe('extension-page');
    expect(classifySender({ id: ID, url: PANEL, origin: `chrome-extension://${ID}`, tab: { id: 144310903 } }, ID)).toBe('extension-page');
    // no origin field (older Chrome): the url's origin decides
    expect(classifySender({ id: ID, url: PANEL, tab: { id: 7 } }, ID)).toBe('extension-page');
  });

  it('a content script in a web page, an about:blank or a sandboxed frame is a content script', () => {
    expect(classifySender({ id: ID, url: 'http://127.0.0.1:1/p.html', origin: 'http://127.0.0.1:1', tab: { id: 5 } }, ID)).toBe('content-script');
    expect(classifySender({ id: ID, url: 'about:blank', origin: 'http://127.0.0.1:1', tab: { id: 5 } }, ID)).toBe('content-script');
    expect(classifySender({ id: ID, url: 'http://127.0.0.1:1/s.html', origin: 'null', tab: { id: 5 } }, ID)).toBe('content-script');
  });

  it('anything else is foreign: another extension, a page without a tab, no sender, another extension origin', () => {
    expect(classifySender(undefined, ID)).toBe('foreign');
    expect(classifySender({ id: 'other', url: PANEL, origin: `chrome-extension://${ID}` }, ID)).toBe('foreign');
    expect(classifySender({ id: ID, url: 'http://127.0.0.1:1/p.html', origin: 'http://127.0.0.1:1' }, ID)).toBe('foreign');
    expect(classifySender({ id: ID, url: 'http://127.0.0.1:1/p.html', origin: 'http://127.0.0.1:1', tab: { id: -1 } }, ID)).toBe('foreign');
    expect(classifySender({ id: ID, url: 'chrome-extension://other/x.html', origin: 'chrome-extension://other', tab: { id: 3 } }, ID)).toBe('foreign');
    expect(classifySender({ id: ID, url: 'not a url' }, ID)).toBe('foreign');
  });
});
