/** Download text as a file from the page (Blob + <a download>); works in DevTools panels and pages. */
export function downloadText(text: string, filename: string, mime: string, doc: Document = document): void {
  const blob = new Blob([text], { type: `${mime};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url; // a blob: URL we made, never data from the page
  a.download = filename;
  a.style.display = 'none';
  doc.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
