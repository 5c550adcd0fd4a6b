// The Transactions list's live update, paced so that a tab nobody looks at costs nothing: every
// poll is a query round against the table, and against a deployed table each read is billed.
// - Only while the tab is visible (Page Visibility API): a hidden tab sends nothing.
// - Backs off while nothing changes (the server answers 204): the interval doubles from the
//   server's minimum up to data-max-ms; a change (200) or the tab coming back resets it.
// - Never faster than data-min-ms, which the server sets (1 s in local mode, 5 s deployed).
// The poller element (#live) is replaced by each answer that brings rows; its attributes are read
// at every step, so the server's newest cursor and pace always win.
(() => {
  let interval = 0;
  let timer;
  let inFlight = false;

  const poller = () => document.getElementById('live');
  const bounds = (element) => {
    const min = Number(element.dataset.minMs) || 1000;
    const max = Math.max(min, Number(element.dataset.maxMs) || 30000);
    return { min, max };
  };

  function schedule() {
    clearTimeout(timer);
    timer = undefined;
    const element = poller();
    if (!element || document.visibilityState !== 'visible' || inFlight) return;
    const { min, max } = bounds(element);
    interval = Math.min(Math.max(interval, min), max);
    timer = setTimeout(poll, interval);
  }

  function poll() {
    timer = undefined;
    const element = poller();
    if (!element || document.visibilityState !== 'visible') return;
    inFlight = true;
    htmx.trigger(element, 'live-poll');
  }

  // An answer that brings rows replaces #live, so htmx reports it from the nearest parent still
  // in the page: the poll is known by the event that started it, not by the element.
  document.addEventListener('htmx:afterRequest', (event) => {
    if (event.detail.requestConfig?.triggeringEvent?.type !== 'live-poll') return;
    inFlight = false;
    const element = poller();
    if (!element) return;
    const { min, max } = bounds(element);
    const changed = event.detail.successful && event.detail.xhr.status === 200;
    interval = changed ? min : Math.min(interval * 2, max);
    schedule();
  });

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') {
      clearTimeout(timer);
      timer = undefined;
      return;
    }
    // Back in view: fast again, from the minimum.
    interval = 0;
    schedule();
  });

  document.addEventListener('DOMContentLoaded', () => {
    interval = 0;
    schedule();
  });
})();
