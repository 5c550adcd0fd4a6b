// The upload goes through htmx, so the CSRF token travels as a header (console.js) and the
// server's CSRF check does not parse the whole upload a second time. htmx leaves 4xx answers
// unswapped by default; a refused report (400), one too large (413) and a failed reconcile (500)
// each carry the message to show.
document.addEventListener('htmx:beforeSwap', (event) => {
  const status = event.detail.xhr.status;
  if (event.detail.target?.id === 'reconcile-result' && [400, 413, 500].includes(status)) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
