import { describe, expect, it } from 'vitest';
import { catalogue } from '../src/catalogue/index.js';
import { closestWord } from '../src/spelling.js';

const ids = catalogue.map((e) => e.id);

describe('closestWord: the id, flag or command a person meant', () => {
  it('names the one meant for a slip of a letter or two, and nothing for a word far from all', () => {
    expect(closestWord('buildlogs', ids)).toBe('build-logs');
    expect(closestWord('--kubconfig', ['--kubeconfig', '--context'])).toBe('--kubeconfig');
    expect(closestWord('lsit', ['list', 'fix', 'explain'])).toBe('list');
    expect(closestWord('deploy-everything-now', ids)).toBeUndefined();
  });

  it('answers a 40 KB word (the most a message holds) with nothing (its time: npm run bench -- spelling)', () => {
    expect(closestWord('x'.repeat(40_000), ids)).toBeUndefined();
    expect(closestWord(`build-logs${'s'.repeat(40_000)}`, ids)).toBeUndefined();
  });
});
