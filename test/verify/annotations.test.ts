import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/model/diagnostic.js';
import { annotation, annotations, escapeData, escapeProperty, runAnnotations } from '../../src/verify/annotations.js';

const d = (over: Partial<Diagnostic> = {}): Diagnostic => ({
  file: 'src/a.ts',
  line: 2,
  col: 3,
  severity: 'error',
  message: 'bad',
  source: 'tsc',
  code: 'TS2322',
  ...over,
});

describe('workflow annotations', () => {
  it('print file, line, col and a title', () => {
    expect(annotation(d())).toBe('::error file=src/a.ts,line=2,col=3,title=tsc TS2322::bad');
    expect(annotation(d({ severity: 'warning', source: 'eslint', code: 'no-var' }))).toBe('::warning file=src/a.ts,line=2,col=3,title=eslint no-var::bad');
    expect(annotation(d({ severity: 'info', col: 0, source: 'generic', code: undefined as never }))).toBe('::notice file=src/a.ts,line=2,title=generic::bad');
    expect(annotation(d(), { title: 'npx tsc --noEmit' })).toBe('::error file=src/a.ts,line=2,col=3,title=npx tsc --noEmit::bad');
  });

  it('escape % CR LF in the message, and also : and , in properties (as @actions/core does)', () => {
    expect(escapeData('100% a:b,c\r\nd')).toBe('100%25 a:b,c%0D%0Ad');
    expect(escapeProperty('100% a:b,c\r\nd')).toBe('100%25 a%3Ab%2Cc%0D%0Ad');
    const line = annotation(d({ file: 'src/we,ird:name.ts', message: "Type 'a' is not assignable.\n  Types of property 'x' are 50% off: no" }));
    expect(line).toBe(
      "::error file=src/we%2Cird%3Aname.ts,line=2,col=3,title=tsc TS2322::Type 'a' is not assignable.%0A  Types of property 'x' are 50%25 off: no",
    );
    // One line per diagnostic, whatever the message held.
    expect(annotations([d(), d({ message: 'a\nb' })]).every((l) => !l.includes('\n'))).toBe(true);
  });

  it('of a run: the diagnostics of each job, titled with the job', () => {
    const jobs = [
      { recipe: 'rename', name: 'rename', diagnostics: [d()] },
      { recipe: 'rename', name: 'pkg-a', diagnostics: [d({ file: 'pkg/a.ts', severity: 'warning' })] },
      { recipe: 'rename', name: 'pkg-b' },
    ];
    expect(runAnnotations(jobs)).toEqual([
      '::error file=src/a.ts,line=2,col=3,title=scion rename%3A tsc TS2322::bad',
      '::warning file=pkg/a.ts,line=2,col=3,title=scion rename/pkg-a%3A tsc TS2322::bad',
    ]);
  });
});
