import { fileURLToPath } from 'node:url';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type NodejsFunctionProps, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * What every function of this product shares, fixed once: Lambda's Node.js 24 on arm64, active
 * tracing, and the bundle as tested (minified ESM, the pinned SDK inside, local esbuild).
 */
export const functionDefaults = {
  projectRoot: fileURLToPath(new URL('../../', import.meta.url)),
  handler: 'handler',
  runtime: Runtime.NODEJS_24_X,
  architecture: Architecture.ARM_64,
  tracing: Tracing.ACTIVE,
  bundling: {
    // ESM with the packages' `module` builds first: the AWS SDK v3 only tree-shakes there.
    format: OutputFormat.ESM,
    mainFields: ['module', 'main'],
    // Bundle the pinned SDK instead of the runtime's copy, so what was tested is what runs.
    externalModules: [],
    minify: true,
    target: 'node24',
    // Source maps off: `--enable-source-maps` slows cold starts and every thrown error, and
    // the handlers log structured errors with their own context.
    sourceMap: false,
    // CommonJS dependencies inside an ESM bundle still call `require`; give them one.
    banner:
      "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    // Local esbuild only: synth and tests must work without Docker.
    forceDockerBundling: false,
  },
} as const satisfies NodejsFunctionProps;
