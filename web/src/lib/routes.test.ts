import { describe, expect, it } from 'vitest'
import { matchRoute, routeTable } from './routes'

describe('route table', () => {
  it('covers every route of the spec', () => {
    const paths = routeTable.map((r) => r.path)
    for (const p of ['/', '/home', '/repository/:id', '/issue/:id', '/pr/:id', '/user/:id', '/help/*', '/docs/*', '/api', '/blog/:id', '/forum/topic/:id', '/admin', '/treasury', '/code-examples']) {
      expect(paths).toContain(p)
    }
  })

  it.each([
    ['/', 'home', {}],
    ['/home', 'home', {}],
    ['/repository/dforge', 'repository', { id: 'dforge' }],
    ['/help/faq', 'faq', {}],
    ['/help/contact', 'contact', {}],
    ['/help/anything/else', 'help', { '*': 'anything/else' }],
    ['/docs/api', 'apiReference', {}],
    ['/docs/getting-started', 'docs', { '*': 'getting-started' }],
    ['/api', 'apiReference', {}],
    ['/pricing', 'info', {}],
    ['/treasury', 'treasury', {}],
    ['/wallet', 'wallet', {}],
    ['/explorer', 'explorer', {}],
    ['/validators', 'validators', {}],
    ['/staking', 'staking', {}],
    ['/grants', 'grants', {}],
    ['/grants/4', 'grant', { id: '4' }],
    ['/admin', 'admin', {}],
    ['/help/tickets/7', 'ticket', { id: '7' }],
    ['/blog/introducing%20dforge', 'blogPost', { id: 'introducing dforge' }],
    ['/governance', 'governance', {}],
    ['/governance/new', 'newProposal', {}],
    ['/governance/7', 'proposal', { id: '7' }],
  ])('%s shows %s', (path, screen, params) => {
    expect(matchRoute(path)).toMatchObject({ screen, params })
  })

  it.each(['/nope', '/repository', '/repository/1/2', '/blog/a/b', '/ada/engine/nope', '/ada/engine/issues/1/2', '/ada/engine/commit', '/ada', '/governance/7/votes'])('%s is not found', (path) => {
    expect(matchRoute(path).screen).toBe('notFound')
  })
})

describe('forge routes', () => {
  it.each([
    ['/new', 'newRepository', {}],
    ['/ada/engine', 'repository', { owner: 'ada', repo: 'engine' }],
    ['/ada/engine/src', 'code', { owner: 'ada', repo: 'engine', '*': '' }],
    ['/ada/engine/src/cmd/main.go', 'code', { owner: 'ada', repo: 'engine', '*': 'cmd/main.go' }],
    ['/ada/engine/src/docs/read%20me.md', 'code', { '*': 'docs/read me.md' }],
    ['/ada/engine/commits', 'commits', { owner: 'ada', repo: 'engine' }],
    ['/ada/engine/commit/0123abc', 'commit', { sha: '0123abc' }],
    ['/ada/engine/branches', 'branches', {}],
    ['/ada/engine/tags', 'tags', {}],
    ['/ada/engine/contributors', 'contributors', {}],
    ['/ada/engine/issues', 'issues', {}],
    ['/ada/engine/issues/new', 'newIssue', { owner: 'ada', repo: 'engine' }],
    ['/ada/engine/issues/12', 'issue', { owner: 'ada', repo: 'engine', number: '12' }],
    ['/ada/engine/pulls', 'pulls', {}],
    ['/ada/engine/pulls/new', 'newPullRequest', {}],
    ['/ada/engine/pulls/3', 'pullRequest', { number: '3' }],
    ['/ada/engine/settings', 'repoSettings', {}],
  ])('%s shows %s', (path, screen, params) => {
    expect(matchRoute(path)).toMatchObject({ screen, params })
  })

  // The spec's routes and every other earlier route are listed first, so they win over /:owner/:repo.
  it.each([
    ['/repository/7', 'repository', { id: '7' }],
    ['/issue/42', 'issue', { id: '42' }],
    ['/pr/9', 'pullRequest', { id: '9' }],
    ['/user/ada', 'user', { id: 'ada' }],
    ['/blog/hello', 'blogPost', { id: 'hello' }],
    ['/help/faq', 'faq', {}],
    ['/docs/api', 'apiReference', {}],
    ['/settings', 'settings', {}],
  ])('%s still shows %s', (path, screen, params) => {
    expect(matchRoute(path)).toMatchObject({ screen, params })
  })

  it('lists the spec routes before the catch-all repository routes', () => {
    const paths = routeTable.map((r) => r.path)
    const firstOwner = paths.indexOf('/:owner/:repo')
    for (const p of ['/repository/:id', '/issue/:id', '/pr/:id', '/user/:id', '/blog/:id', '/help/*', '/docs/*', '/forum/topic/:id']) {
      expect(paths.indexOf(p)).toBeLessThan(firstOwner)
    }
    // issues/new and pulls/new come before :number (which would otherwise take "new").
    expect(paths.indexOf('/:owner/:repo/issues/new')).toBeLessThan(paths.indexOf('/:owner/:repo/issues/:number'))
    expect(paths.indexOf('/:owner/:repo/pulls/new')).toBeLessThan(paths.indexOf('/:owner/:repo/pulls/:number'))
  })
})
