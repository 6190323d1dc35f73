// Behaviour 9 (secret, code 0): new content must not add a credential; one already there is not added.
import { describe, expect, it } from 'vitest';
import { applyEdits, editNotebook, findSecrets, replaceRegex, writeContent } from '../../src/core/index.js';
import { changed, expectFailure, fakeSecrets, file } from './helpers.js';

describe('findSecrets', () => {
  it.each([
    ['github-token', fakeSecrets.github],
    ['github-token', fakeSecrets.githubOauth],
    ['github-token', fakeSecrets.githubServer],
    ['github-fine-grained-token', fakeSecrets.githubPat],
    ['gitlab-token', fakeSecrets.gitlab],
    ['slack-token', fakeSecrets.slack],
    ['aws-access-key-id', fakeSecrets.aws],
    ['anthropic-api-key', fakeSecrets.anthropic],
    ['openai-api-key', fakeSecrets.openai],
    ['private-key', fakeSecrets.privateKey],
  ])('finds a %s', (name, secret) => {
    const found = findSecrets(`const k = "${secret}";`);
    expect(found).toEqual([{ name, index: 11 }]);
  });

  it('leaves ordinary code alone', () => {
    const code = 'const task = "sk-learn"; ghp_short; AKIA; mask-ant-thing; xoxb-; -----BEGIN PUBLIC KEY-----';
    expect(findSecrets(code)).toEqual([]);
  });

  it('does not report the credential text itself', () => {
    const [hit] = findSecrets(fakeSecrets.aws);
    expect(Object.keys(hit ?? {})).toEqual(['name', 'index']);
  });
});

describe('refusing to add credentials', () => {
  it('an edit that adds one fails with kind secret, code 0, without echoing it', () => {
    const f = expectFailure(applyEdits(file('config.ts', 'const token = "";\n'), [{ old_string: '""', new_string: `"${fakeSecrets.github}"` }]), 'secret', 0);
    expect(f.message).not.toContain(fakeSecrets.github);
    expect(f.data?.secret).toBe('github-token');
  });

  it('a credential already in the file is not added by an edit that keeps it', () => {
    const before = `const token = "${fakeSecrets.aws}"; // old\n`;
    changed(applyEdits(file('config.ts', before), [{ old_string: `"${fakeSecrets.aws}"; // old`, new_string: `"${fakeSecrets.aws}"; // kept` }]));
  });

  it('writes, notebooks and regex replacements are checked too', () => {
    expectFailure(writeContent(file('.env', null), `KEY=${fakeSecrets.anthropic}\n`), 'secret', 0);
    const nb = JSON.stringify({ cells: [], nbformat: 4, nbformat_minor: 5 });
    expectFailure(editNotebook(file('a.ipynb', nb), { source: `key = "${fakeSecrets.openai}"`, mode: 'insert', type: 'code' }), 'secret', 0);
    expectFailure(replaceRegex(file('a.ts', 'k = "";\n'), '""', `"${fakeSecrets.gitlab}"`, false), 'secret', 0);
  });

  it('a regex replacement that assembles a credential from pieces of the file is caught', () => {
    const half = fakeSecrets.github.slice(0, 20);
    const rest = fakeSecrets.github.slice(20);
    const before = `a = "${half}";\nb = "${rest}";\n`;
    expectFailure(replaceRegex(file('a.ts', before), String.raw`"([^"]+)";\nb = "([^"]+)"`, '"$1$2"', false), 'secret', 0);
  });
});
