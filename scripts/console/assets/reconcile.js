// The upload goes through htmx, which puts the answer in place without a reload. htmx leaves
// 4xx and 5xx answers unswapped by default; a refused report (400), one too large (413) and a failed reconcile (500)
// each carry the message to show.
document.addEventListener('htmx:beforeSwap', (event) => {
  const status = event.detail.xhr.status;
  if (event.detail.target?.id === 'reconcile-result' && [400, 413, 500].includes(status)) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
