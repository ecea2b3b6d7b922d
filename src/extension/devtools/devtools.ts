// DevTools page: creates the "MCP Streams" panel. The panel page does the rest (it has
// chrome.devtools.inspectedWindow and chrome.devtools.network itself).

chrome.devtools.panels.create('MCP Streams', '', 'src/panel/panel.html');
