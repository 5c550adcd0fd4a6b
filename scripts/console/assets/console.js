// Every htmx request carries the session's CSRF token (same-origin-post.ts checks it); forms
// posted without htmx carry it as a hidden field.
document.addEventListener('htmx:configRequest', (event) => {
  const token = document.querySelector('meta[name="csrf-token"]');
  if (token) event.detail.headers['x-csrf-token'] = token.getAttribute('content');
});
