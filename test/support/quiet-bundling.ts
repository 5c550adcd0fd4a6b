/**
 * CDK's asset staging writes "Bundling asset <path>..." straight to stderr on every synth, and
 * vitest silences only the console output of passing tests, so each synthesizing test file would
 * add its lines to the report. Only that line is dropped; everything else reaches stderr.
 */
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
  typeof chunk === 'string' && chunk.startsWith('Bundling asset ')
    ? true
    : write(chunk, ...rest)) as typeof process.stderr.write;
