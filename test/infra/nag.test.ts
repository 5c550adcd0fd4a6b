import { Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, test } from 'vitest';
import { buildApp, everythingOn, type Synthesized, synthesize } from './synth.js';

// Every synthesize() in this suite already fails on an unacknowledged finding (cdk-nag runs as a
// validation plugin), so each configuration another file synthesizes (existing secret by name
// or ARN...) is checked too. These tests ask the packs directly for the two main configurations
// and check the acknowledgements themselves.
const configurations: [string, Synthesized][] = [
  ['defaults', synthesize()],
  ['every option on', synthesize(everythingOn)],
];

function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  const found: { path: string; id: string; reason: string }[] = [];
  const visit = (construct: IConstruct) => {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        found.push({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason });
      }
    }
    for (const child of construct.node.children) visit(child);
  };
  visit(root);
  return found;
}

describe('cdk-nag', () => {
  test.each(configurations)('AwsSolutions reports no unacknowledged finding (%s)', (_, { app }) => {
    expect(new AwsSolutionsChecks().validateScope(app).violations).toEqual([]);
  });

  test.each(configurations)('Serverless reports no unacknowledged finding (%s)', (_, { app }) => {
    expect(new ServerlessChecks().validateScope(app).violations).toEqual([]);
  });

  test('every acknowledgement names one rule and gives a specific reason', () => {
    for (const [, { app }] of configurations) {
      const all = acknowledgements(app);
      expect(all.length).toBeGreaterThan(0);
      for (const { id, reason } of all) {
        expect(id).toMatch(/^(AwsSolutions|Serverless)-[A-Za-z0-9]+(\[.+\])?$/);
        expect(reason.length, `${id}: ${reason}`).toBeGreaterThan(80);
      }
    }
  });

  test('acknowledges nothing at app or stack level: each sits on the resource it concerns', () => {
    for (const [, { app, stack }] of configurations) {
      const broad = acknowledgements(app).filter(
        ({ path }) => path === app.node.path || path === stack.node.path,
      );
      expect(broad).toEqual([]);
    }
  });

  test('makes synthesis fail on a finding nobody acknowledged', () => {
    const { app } = buildApp();
    const extra = new Stack(app, 'Unreviewed');
    new Bucket(extra, 'Bucket');
    expect(() => Template.fromStack(extra)).toThrow(/AwsSolutions-S1/);
  });
});
