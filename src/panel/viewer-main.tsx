// Placeholder: the standalone viewer (issue 4) replaces this.
const root = document.getElementById('root');
if (root) root.textContent = 'MCP Stream Inspector viewer';
