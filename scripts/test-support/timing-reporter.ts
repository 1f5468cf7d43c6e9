/**
 * A vitest reporter that keeps how long each test file took, so the slowest can be found and attacked
 * (`npm run test:slowest` prints them). Each vitest run writes test-results/times-<projects>.json: per file its
 * project, its wall time (import, collect, setup and tests) and its test time, plus the run's total.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTime {
  project: string;
  file: string;
  /** Milliseconds from the file's import to its last test's end. */
  ms: number;
  /** Milliseconds in the tests themselves. */
  testMs: number;
  state: string;
}

export default class TimingReporter implements Reporter {
  private started = Date.now();
  private readonly files: FileTime[] = [];

  onTestRunStart(): void {
    this.started = Date.now();
  }

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    this.files.push({
      project: module.project.name,
      file: path.relative(process.cwd(), module.moduleId),
      ms: Math.round(d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration),
      testMs: Math.round(d.duration),
      state: module.state(),
    });
  }

  onTestRunEnd(): void {
    if (this.files.length === 0) return;
    const projects = [...new Set(this.files.map((f) => f.project))].sort();
    const dir = path.join(process.cwd(), 'test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, `times-${projects.join('+')}.json`),
      JSON.stringify({ wallMs: Date.now() - this.started, at: new Date().toISOString(), files: this.files }, null, 1),
    );
  }
}
