import * as z from 'zod';
import { deploymentOptions, type OptionName, optionNames } from './deployment-options.js';
import { listEntries } from './option-values.js';

/*
 * A deployment's options validated together (each by its schema in deployment-options.ts, then
 * the rules that tie two of them), with every default applied.
 */

type Schemas = { [Name in OptionName]: (typeof deploymentOptions)[Name]['schema'] };
const schemas = Object.fromEntries(
  optionNames.map((name) => [name, deploymentOptions[name].schema]),
) as Schemas;

/**
 * All options together, plus the rules that tie two of them: an option that would be silently
 * ignored is refused instead.
 */
const deploymentSettingsSchema = z
  .object(schemas)
  .refine((settings) => settings.waf || settings.allowedSourceIps === undefined, {
    path: ['allowedSourceIps'],
    message: 'needs the WAF; remove waf=false',
  })
  .refine((settings) => settings.waf || settings.wafRateLimit === undefined, {
    path: ['wafRateLimit'],
    message: 'needs the WAF; remove waf=false',
  })
  .refine((settings) => settings.existingSecretName || !settings.existingSecretKeyArn, {
    path: ['existingSecretKeyArn'],
    message: 'is the key of an existing secret; set existingSecretName too',
  })
  .refine((settings) => settings.domainName || !settings.certificateArn, {
    path: ['certificateArn'],
    message: 'is the certificate of a custom domain; set domainName too',
  })
  .refine((settings) => settings.certificateArn || !settings.domainName, {
    path: ['domainName'],
    message: 'needs its certificate; set certificateArn too',
  });

/** What a deployment chose, every default applied. */
export type DeploymentSettings = z.output<typeof deploymentSettingsSchema>;
/** What a deployment may pass: every option optional, strings accepted as on the command line. */
export type DeploymentOptions = z.input<typeof deploymentSettingsSchema>;

export class DeploymentOptionError extends Error {
  override name = 'DeploymentOptionError';
}

/**
 * Validates options (from CDK context or stack props) and applies the defaults. An empty string
 * counts as unset (`-c alarmEmail=`). Throws a {@link DeploymentOptionError} naming every bad option.
 */
export function parseDeploymentOptions(
  options: Readonly<Record<string, unknown>>,
): DeploymentSettings {
  const given = Object.fromEntries(
    Object.entries(options).filter(
      ([, value]) =>
        value !== undefined &&
        value !== null &&
        !(typeof value === 'string' && value.trim() === ''),
    ),
  );
  const result = deploymentSettingsSchema.safeParse(given);
  if (!result.success) {
    const problems = result.error.issues.map(({ path: [name, ...rest], message }) => {
      // The item of a list, e.g. the bad CIDR, by its position and value.
      const index = typeof rest[0] === 'number' ? rest[0] : undefined;
      const given = index === undefined ? undefined : listEntries(options[String(name)])[index];
      const where = index === undefined ? '' : ` item ${index + 1} (${JSON.stringify(given)})`;
      return `"${String(name)}"${where} ${message}`;
    });
    throw new DeploymentOptionError(`Invalid deployment option: ${problems.join('; ')}`);
  }
  return result.data;
}
