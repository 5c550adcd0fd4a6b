import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { optionsTable } from '../../infra/options-table.js';
import { synthesize } from './synth.js';

const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const deploy = doc('deploy.md');

test('docs/deploy.md lists every deployment option exactly as infra/deployment-options.ts declares it', () => {
  expect(deploy).toContain(optionsTable());
});

describe('the docs describe the template the stack synthesizes', () => {
  const { template } = synthesize();

  test('docs/deploy.md names every exported output, and no other', () => {
    const sentence = /Outputs \(each also exported as `<stack>-<output>`\):([^.]*)\./.exec(deploy);
    expect(sentence, 'the outputs sentence').not.toBeNull();
    const named = [...(sentence?.[1] ?? '').matchAll(/`(\w+)`/g)].map(([, name]) => name);
    const exported = Object.entries(template.toJSON().Outputs as Record<string, object>)
      .filter(([, output]) => 'Export' in output)
      .map(([name]) => name);
    expect(named.sort()).toEqual(exported.sort());
  });

  test('docs/alarms.md has a row per alarm, and docs/deploy.md counts them', () => {
    const alarms = Object.keys(template.findResources('AWS::CloudWatch::Alarm')).length;
    const rows = doc('alarms.md')
      .split('\n')
      .filter((line) => /^\| `\w+` \|/.test(line));
    expect(rows).toHaveLength(alarms);
    expect(deploy).toContain(`${alarms} alarms`);
  });
});
