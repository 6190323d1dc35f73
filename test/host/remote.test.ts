import { describe, expect, it } from 'vitest';
import { parseRemoteUrl } from '../../src/host/remote.js';

describe('parseRemoteUrl', () => {
  it.each([
    ['https://github.com/acme/app.git', 'acme', 'app'],
    ['https://github.com/acme/app', 'acme', 'app'],
    ['https://github.com/acme/app/', 'acme', 'app'],
    ['https://x-access-token:ghs_abc@github.com/acme/app.git', 'acme', 'app'],
    ['http://github.com/Acme-Co/my.repo.git', 'Acme-Co', 'my.repo'],
    ['git@github.com:acme/app.git', 'acme', 'app'],
    ['git@github.com:acme/app', 'acme', 'app'],
    ['github.com:acme/app.git', 'acme', 'app'],
    ['ssh://git@github.com/acme/app.git', 'acme', 'app'],
    ['ssh://git@ssh.github.com:443/acme/app.git', 'acme', 'app'],
    ['git://github.com/acme/app.git', 'acme', 'app'],
    ['  https://GitHub.com/acme/app.git\n', 'acme', 'app'],
  ])('%s → %s/%s', (url, owner, repo) => {
    expect(parseRemoteUrl(url)).toEqual({ owner, repo });
  });

  it.each([
    'https://gitlab.com/acme/app.git',
    'git@gitlab.com:acme/app.git',
    'https://github.com/acme',
    'https://github.com/acme/app/tree/main',
    'https://github.com/acme/../app',
    '/srv/git/app.git',
    'C:/repos/app',
    'file:///srv/git/acme/app.git',
    '',
  ])('%s → null', (url) => {
    expect(parseRemoteUrl(url)).toBeNull();
  });

  it('accepts a GitHub Enterprise host when told', () => {
    expect(parseRemoteUrl('git@ghe.corp.example:team/svc.git')).toBeNull();
    expect(parseRemoteUrl('git@ghe.corp.example:team/svc.git', { hosts: ['ghe.corp.example'] })).toEqual({ owner: 'team', repo: 'svc' });
  });
});
