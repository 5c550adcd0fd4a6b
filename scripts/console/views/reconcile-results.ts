import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { machineWriter } from '../../cli/output/machine-output.js';
import { type ReportFormat, readReport } from '../../operations/reconcile/gateway-report.js';
import {
  type Finding,
  type ReconcileSummary,
  reconcile,
  tableSources,
} from '../../operations/reconcile/reconcile.js';
import {
  findingSections,
  findingShape,
  rowsPerKind,
} from '../../operations/reconcile/reconcile-output.js';
import type { TimeWindow } from '../../table/time-window.js';
import type { QueryContext } from '../../table/transaction-queries.js';
import type { ConsoleEnv } from '../console-context.js';

type Session = ConsoleEnv['Variables']['session'];

/** The first rows of one kind of difference, and how many there were in all. */
export interface ShownFindings {
  readonly count: number;
  readonly rows: readonly (readonly string[])[];
}

/** One upload's outcome, kept for its session until the next upload. */
export interface ReconcileResult {
  readonly fileName: string;
  readonly window: TimeWindow;
  readonly summary: ReconcileSummary;
  /** Per kind, the first {@link rowsPerKind} differences as the terminal's table shows them. */
  readonly shown: ReadonlyMap<Finding['kind'], ShownFindings>;
  /** Every difference, in the CLI's CSV format (formula cells neutralised). */
  readonly csvPath: string;
}

/** What to reconcile: the uploaded report as a stream, and the window to compare it with. */
export interface ReconcileRequest {
  readonly fileName: string;
  readonly report: Readable;
  readonly format: ReportFormat;
  readonly window: TimeWindow;
}

// Temp folders of every console in this process, removed when it exits (they hold references
// and amounts). A crash leaves them in the OS temp folder, mode 0700, like any other temp file.
const folders = new Set<string>();
process.once('exit', () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * The Reconcile view's results: one per session, the latest upload's. The page shows the
 * counts and the first rows of each kind (kept in memory: a few dozen rows), and the download
 * reads every difference from a temp file written as they were found, so a report that differs
 * wholesale costs disk, not memory.
 */
export class ReconcileResults {
  readonly #bySession = new WeakMap<Session, ReconcileResult>();
  #folder: string | undefined;

  get(session: Session): ReconcileResult | undefined {
    return this.#bySession.get(session);
  }

  /** Drops the session's result and its file (a new upload replaces it, even one that fails). */
  async forget(session: Session): Promise<void> {
    const previous = this.#bySession.get(session);
    this.#bySession.delete(session);
    if (previous) await rm(previous.csvPath, { force: true });
  }

  /**
   * Runs the same `reconcile()` as `npm run reconcile` (over the table's sources
   * and the report's rows) and keeps its result for `session`. A bad report throws its
   * ReportInputError, and nothing is kept.
   */
  async run(
    session: Session,
    context: QueryContext,
    request: ReconcileRequest,
  ): Promise<ReconcileResult> {
    await this.forget(session);
    const csvPath = this.tempPath('csv');
    const out = createWriteStream(csvPath, { mode: 0o600 });
    const shown = new Map<Finding['kind'], { count: number; rows: string[][] }>();
    try {
      const csv = machineWriter('csv', findingShape, out);
      const sources = {
        ...tableSources(context, request.window),
        report: readReport(request.report, request.format),
      };
      const summary = await reconcile(sources, async (finding) => {
        keep(shown, finding);
        await csv.write(finding);
      });
      await csv.end(summary);
      out.end();
      await finished(out);
      const result = {
        fileName: request.fileName,
        window: request.window,
        summary,
        shown,
        csvPath,
      };
      // Two uploads of one session at once: the last to finish is kept, the other's file goes.
      const overtaken = this.#bySession.get(session);
      this.#bySession.set(session, result);
      if (overtaken) await rm(overtaken.csvPath, { force: true });
      return result;
    } catch (error) {
      out.destroy();
      request.report.destroy();
      await rm(csvPath, { force: true });
      throw error;
    }
  }

  /** The session's differences file, opened (a later upload may delete the path meanwhile). */
  async openDifferences(session: Session) {
    const result = this.#bySession.get(session);
    return result && open(result.csvPath);
  }

  /** A new file name in this console's private temp folder (made on first use, mode 0700). */
  tempPath(extension: string): string {
    if (this.#folder === undefined) {
      this.#folder = mkdtempSync(join(tmpdir(), 'console-reconcile-'));
      folders.add(this.#folder);
    }
    return join(this.#folder, `${randomUUID()}.${extension}`);
  }
}

function keep(shown: Map<Finding['kind'], { count: number; rows: string[][] }>, finding: Finding) {
  const kind = shown.get(finding.kind) ?? { count: 0, rows: [] };
  kind.count += 1;
  if (kind.count <= rowsPerKind) {
    const rowsOf = findingSections[finding.kind][2] as (finding: Finding) => string[][];
    kind.rows.push(...rowsOf(finding));
  }
  shown.set(finding.kind, kind);
}
