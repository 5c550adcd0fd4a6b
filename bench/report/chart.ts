import type { BenchmarkResults } from '../benchmark.js';
import { formatValue } from './format.js';
import type { ResultRow } from './result-row.js';

const width = 1040;
const labelWidth = 330;
const rowHeight = 26;
const green = '#2e7d32';
const red = '#c62828';
const grey = '#9e9e9e';

/**
 * The README's chart, as plain SVG (no chart library to install): first how far ours is ahead
 * of the baseline on each headline metric, as a factor on a log scale centred on 1× (right of
 * the line is better, whatever the unit); then ours and the baseline as multiples of the bare-SDK
 * floor, with the targets drawn in.
 */
export function chartSvg(results: BenchmarkResults): string {
  const headline = results.rows.filter(isHeadline);
  const floorRows = results.rows.filter((row) => row.floor !== undefined && row.target);
  const parts: string[] = [];
  let y = 34;
  parts.push(
    text(20, y, 'Callback receiver: ours vs the common way (middy + Powertools)', 18, 'bold'),
  );
  y += 20;
  parts.push(
    text(
      20,
      y,
      `${results.startedAt.slice(0, 10)}, ${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}${results.mode === 'smoke' ? ' (smoke run: figures not meaningful)' : ''}`,
      12,
      'normal',
      '#555',
    ),
  );

  y += 34;
  parts.push(
    text(
      20,
      y,
      'Ours relative to the baseline (log scale; right of 1× = ours better; ours vs baseline in brackets)',
      14,
      'bold',
    ),
  );
  y += 12;
  const axis = advantageAxis();
  const top = y + 8;
  // Grid lines go under the bars: insert them where this panel's bars begin.
  const barsStart = parts.length;
  for (const row of headline) {
    y += rowHeight;
    parts.push(...advantageBar(row, y, axis));
  }
  parts.splice(barsStart, 0, ...advantageGrid(axis, top, y + 10));

  y += 50;
  parts.push(
    text(
      20,
      y,
      'Cold start as a multiple of the SDK floor (DynamoDBClient + PutItemCommand only)',
      14,
      'bold',
    ),
  );
  y += 12;
  const floorAxis = floorScale(floorRows);
  const floorTop = y + 8;
  const floorBarsStart = parts.length;
  for (const row of floorRows) {
    for (const subject of ['ours', 'baseline'] as const) {
      y += rowHeight;
      parts.push(...floorBar(row, subject, y, floorAxis));
    }
    y += 8;
  }
  parts.splice(floorBarsStart, 0, ...floorGrid(floorAxis, floorTop, y + 4));
  const height = y + 30;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

/** The rows a reader compares first: medians, the two floor targets, load, requests on AWS's engine. */
function isHeadline(row: ResultRow): boolean {
  if (row.section === 'DynamoDB requests per callback') {
    return /^(new callback|identical duplicate), DynamoDB Local$/.test(row.metric);
  }
  if (row.section === 'Handler CPU per callback') return row.metric.endsWith('median');
  if (row.section === 'Cold start') return row.target !== undefined;
  return !row.metric.startsWith('errors');
}

/** The row's name without what the panel already says. */
function chartLabel(row: ResultRow): string {
  const metric = row.metric.replace(/, DynamoDB Local$/, '').replace(/, median$/, '');
  return `${shortSection(row.section)}: ${metric}`;
}

interface Axis {
  readonly x0: number;
  readonly x1: number;
  readonly minLog: number;
  readonly maxLog: number;
}

function advantageAxis(): Axis {
  return { x0: labelWidth + 20, x1: width - 200, minLog: -2, maxLog: 3 };
}

function xOfFactor(axis: Axis, factor: number): number {
  const log = Math.min(axis.maxLog, Math.max(axis.minLog, Math.log2(factor)));
  return axis.x0 + ((log - axis.minLog) / (axis.maxLog - axis.minLog)) * (axis.x1 - axis.x0);
}

function advantage(row: ResultRow): number {
  if (row.ours === 0 || row.baseline === 0) return 1;
  return row.lowerIsBetter ? row.baseline / row.ours : row.ours / row.baseline;
}

function advantageBar(row: ResultRow, y: number, axis: Axis): string[] {
  const factor = advantage(row);
  const one = xOfFactor(axis, 1);
  const end = xOfFactor(axis, factor);
  const color = factor >= 1 ? green : red;
  const verdict =
    Math.abs(factor - 1) < 0.005
      ? 'same'
      : factor > 1
        ? `${factor.toFixed(2)}× better`
        : `${(1 / factor).toFixed(2)}× worse`;
  const label = `${verdict}  (${formatValue(row.ours, row.unit)} vs ${formatValue(row.baseline, row.unit)} ${row.unit})`;
  return [
    text(20, y, chartLabel(row), 12),
    `<rect x="${Math.min(one, end).toFixed(1)}" y="${y - 13}" width="${Math.max(1, Math.abs(end - one)).toFixed(1)}" height="16" fill="${color}"/>`,
    text(Math.max(one, end) + 6, y, label, 11, 'normal', '#333'),
  ];
}

function advantageGrid(axis: Axis, top: number, bottom: number): string[] {
  const lines: string[] = [];
  for (let log = axis.minLog; log <= axis.maxLog; log++) {
    const x = xOfFactor(axis, 2 ** log);
    lines.push(
      `<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="${log === 0 ? '#000' : '#ddd'}" stroke-width="${log === 0 ? 1.5 : 1}"/>`,
      text(x - 10, bottom + 14, `${2 ** log}×`, 11, 'normal', '#555'),
    );
  }
  return lines;
}

interface FloorAxis {
  readonly x0: number;
  readonly x1: number;
  readonly max: number;
}

function floorScale(rows: readonly ResultRow[]): FloorAxis {
  const ratios = rows.flatMap((row) => [row.ours, row.baseline].map((v) => v / (row.floor ?? 1)));
  return {
    x0: labelWidth + 20,
    x1: width - 150,
    max: Math.max(2, Math.ceil(Math.max(...ratios) * 2) / 2),
  };
}

function xOfMultiple(axis: FloorAxis, multiple: number): number {
  return axis.x0 + (Math.min(multiple, axis.max) / axis.max) * (axis.x1 - axis.x0);
}

function floorBar(
  row: ResultRow,
  subject: 'ours' | 'baseline',
  y: number,
  axis: FloorAxis,
): string[] {
  const value = row[subject];
  const multiple = value / (row.floor ?? 1);
  const limit = Number(/([\d.]+)×/.exec(row.target?.text ?? '')?.[1] ?? Number.NaN);
  const color = subject === 'baseline' ? grey : multiple <= limit ? green : red;
  const end = xOfMultiple(axis, multiple);
  const parts = [
    text(20, y, `${row.metric.replace(/, median$/, '')}: ${subject}`, 12),
    `<rect x="${axis.x0}" y="${y - 13}" width="${(end - axis.x0).toFixed(1)}" height="16" fill="${color}"/>`,
    text(
      end + 6,
      y,
      `${multiple.toFixed(2)}×  (${formatValue(value, row.unit)} vs ${formatValue(row.floor ?? 0, row.unit)} ${row.unit})`,
      11,
      'normal',
      '#333',
    ),
  ];
  if (subject === 'ours' && Number.isFinite(limit)) {
    const x = xOfMultiple(axis, limit);
    parts.push(
      `<line x1="${x}" y1="${y - 17}" x2="${x}" y2="${y + rowHeight - 4}" stroke="#000" stroke-dasharray="4 3"/>`,
      text(x + 3, y - 15, `target ${limit}×`, 10, 'normal', '#000'),
    );
  }
  return parts;
}

function floorGrid(axis: FloorAxis, top: number, bottom: number): string[] {
  const lines: string[] = [];
  for (let multiple = 0; multiple <= axis.max; multiple += 0.5) {
    const x = xOfMultiple(axis, multiple);
    lines.push(
      `<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="${multiple === 1 ? '#000' : '#eee'}"/>`,
      text(x - 8, bottom + 14, `${multiple}×`, 11, 'normal', '#555'),
    );
  }
  return lines;
}

function shortSection(section: ResultRow['section']): string {
  return {
    'DynamoDB requests per callback': 'DynamoDB requests',
    'Handler CPU per callback': 'Handler CPU',
    'Cold start': 'Cold start',
    'End to end': 'End to end',
  }[section];
}

function text(
  x: number,
  y: number,
  content: string,
  size: number,
  weight: 'normal' | 'bold' = 'normal',
  fill = '#111',
): string {
  return `<text x="${x.toFixed(1)}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(content)}</text>`;
}

function escapeXml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
