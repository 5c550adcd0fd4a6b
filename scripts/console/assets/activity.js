// The Activity view's two charts, drawn by uPlot from /activity/data. The page's tables hold the
// same figures; the charts are for the eye (their container is aria-hidden). uPlot styles its
// elements through the DOM (element.style), which the CSP allows; nothing here is inline.
(() => {
  const root = document.getElementById('activity-charts');
  const status = document.getElementById('chart-status');
  if (!root || !status || typeof uPlot === 'undefined') return;

  // Okabe-Ito colours, told apart with the common colour-vision deficiencies.
  const colours = {
    recorded: '#009e73',
    duplicate: '#0072b2',
    conflict: '#e69f00',
    unauthorized: '#cc79a7',
    hashRejected: '#d55e00',
    invalid: '#56b4e9',
    failed: '#b3261e',
  };
  const height = 240;
  const width = () => Math.max(240, root.clientWidth);
  // Axis text in the page's own colour, so dark mode can read it.
  const ink = getComputedStyle(document.body).color;
  const axis = (label) => ({
    stroke: ink,
    grid: { stroke: '#8884' },
    ticks: { stroke: '#8884' },
    label,
  });
  // Minutes in UTC and 24-hour time, as the tables write them.
  const tzDate = (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');
  const hhmm = uPlot.fmtDate('{HH}:{mm}');
  const timeAxis = { ...axis(), values: (_u, ticks) => ticks.map((tick) => hhmm(tzDate(tick))) };
  const minuteSeries = { label: 'Minute (UTC)', value: '{YYYY}-{MM}-{DD} {HH}:{mm}' };

  // The charts and the totals table follow the figures; the per-minute table stays as loaded.
  const refreshMs = 30_000;
  const load = () =>
    fetch(`/activity/data?range=${encodeURIComponent(root.dataset.range || 'hour')}`, {
      headers: { accept: 'application/json' },
    }).then((response) => {
      if (!response.ok) throw new Error(`the figures answered ${response.status}`);
      return response.json();
    });

  load()
    .then((data) => {
      const plots = draw(data);
      setInterval(() => {
        load().then(
          (newer) => {
            plots.counts.setData(countsOf(newer));
            plots.latency.setData(latencyOf(newer));
            showTotals(newer);
          },
          // The next round tries again; the page keeps what it has.
          () => {},
        );
      }, refreshMs);
    })
    .catch((error) => {
      status.textContent = `The charts could not be drawn (${error.message}); the tables below hold the figures.`;
    });

  const countsOf = (data) => [data.minutes, ...data.classes.map(({ key }) => data.counts[key])];
  const latencyOf = (data) => [data.minutes, data.latency.p50, data.latency.p99];

  /** The totals table's cells, written as the server writes them (views/activity-figures.ts). */
  function showTotals(data) {
    const ms = (value) =>
      value === null ? '–' : value < 10 ? value.toFixed(1) : String(Math.round(value));
    const cell = (selector) => document.querySelector(`${selector} td.num`);
    let total = 0;
    for (const { key } of data.classes) {
      total += data.totals[key];
      const found = cell(`tr[data-outcome="${key}"]`);
      if (found) found.textContent = String(data.totals[key]);
    }
    for (const p of ['p50', 'p99']) {
      const found = cell(`tr[data-latency="${p}"]`);
      if (found) found.textContent = ms(data.overall[p]);
    }
    const count = document.querySelector('[data-total]');
    if (count) count.textContent = `${total} callback${total === 1 ? '' : 's'}`;
  }

  function draw(data) {
    const counts = new uPlot(
      {
        width: width(),
        height,
        tzDate,
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [
          minuteSeries,
          ...data.classes.map(({ key, label }) => ({
            label,
            stroke: colours[key],
            width: 1.5,
            points: { show: false },
          })),
        ],
        axes: [timeAxis, axis('callbacks')],
      },
      countsOf(data),
      document.getElementById('chart-counts'),
    );
    const latency = new uPlot(
      {
        width: width(),
        height,
        tzDate,
        series: [
          minuteSeries,
          { label: 'p50', stroke: '#0072b2', width: 1.5, points: { show: true, size: 4 } },
          { label: 'p99', stroke: '#d55e00', width: 1.5, points: { show: true, size: 4 } },
        ],
        axes: [timeAxis, axis('ms')],
      },
      latencyOf(data),
      document.getElementById('chart-latency'),
    );
    status.textContent = '';
    status.hidden = true;
    window.addEventListener('resize', () => {
      for (const plot of [counts, latency]) plot.setSize({ width: width(), height });
    });
    return { counts, latency };
  }
})();
