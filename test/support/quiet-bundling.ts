/**
 * CDK's asset staging writes "Bundling asset <path>..." straight to stderr on every synth, and
 * vitest silences only the console output of passing tests, so each synthesizing test file would
 * add its lines to the report. Only that line is dropped; everything else reaches stderr.
 *
 * A setup file runs before every test file, and files share a worker (vitest.config.ts,
 * `isolate`): the stream is wrapped once per process, not once more per file.
 */
const quiet = Symbol.for('callback-receiver.quiet-bundling');
const stderr = process.stderr as NodeJS.WriteStream & { [quiet]?: true };
if (!stderr[quiet]) {
  const write = stderr.write.bind(stderr);
  stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
    typeof chunk === 'string' && chunk.startsWith('Bundling asset ')
      ? true
      : write(chunk, ...rest)) as typeof stderr.write;
  stderr[quiet] = true;
}
