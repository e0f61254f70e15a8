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
    ['/grants', 'ecosystem', {}],
    ['/admin', 'workspace', {}],
    ['/blog/introducing%20dforge', 'blogPost', { id: 'introducing dforge' }],
  ])('%s shows %s', (path, screen, params) => {
    expect(matchRoute(path)).toMatchObject({ screen, params })
  })

  it.each(['/nope', '/repository', '/repository/1/2', '/blog/a/b'])('%s is not found', (path) => {
    expect(matchRoute(path).screen).toBe('notFound')
  })
})
