// Keeps "3 min ago" beside each time current while the page stays open (the server wrote it at
// render time): the same wording as html/times.ts. Rows the live list adds come with their own.
(() => {
  function ago(at, now) {
    const seconds = Math.round((now - at) / 1000);
    const size = Math.abs(seconds);
    const amount =
      size < 60
        ? `${size} s`
        : size < 3600
          ? `${Math.floor(size / 60)} min`
          : size < 86400
            ? `${Math.floor(size / 3600)} h`
            : `${Math.floor(size / 86400)} d`;
    if (size < 5) return 'just now';
    return seconds >= 0 ? `${amount} ago` : `in ${amount}`;
  }
  function refresh() {
    if (document.visibilityState !== 'visible') return;
    const now = Date.now();
    for (const time of document.querySelectorAll('time[data-ago]')) {
      const at = Date.parse(time.getAttribute('datetime') ?? '');
      if (!Number.isNaN(at)) time.dataset.ago = ago(at, now);
    }
  }
  setInterval(refresh, 30000);
  document.addEventListener('visibilitychange', refresh);
})();
