import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { initI18n } from '@/i18n/i18n'
import { json, preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import ApiReferenceScreen from './ApiReferenceScreen'
import { endpointsOf, filterEndpoints, groupEndpoints, groupOf, type OpenApiDocument } from './openapi'

preloadNamespaces('docs')

// A few operations in the shapes tools/openapi writes them.
const SPEC: OpenApiDocument = {
  openapi: '3.0.3',
  info: { title: 'dForge API', version: '1' },
  paths: {
    '/api/analytics/web-vitals': { post: { operationId: 'postWebVital', summary: 'Post web vital', requestBody: {}, security: [] } },
    '/api/v1/repos/{owner}/{repo}/issues': {
      get: {
        operationId: 'listIssues',
        summary: 'List issues',
        // Public, and signed in it shows what the user may see.
        security: [{}, { SessionCookie: [] }, { AuthorizationHeaderToken: [] }, { BasicAuth: [] }],
        parameters: [
          { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'page', in: 'query', schema: { type: 'integer' } },
        ],
      },
      post: {
        operationId: 'createIssue',
        summary: 'Create issue',
        parameters: [
          { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
        ],
        requestBody: { required: true },
        security: [{ SessionCookie: [], CSRFToken: [] }, { AuthorizationHeaderToken: [] }, { BasicAuth: [] }],
        'x-dforge-scope': 'write',
      },
    },
    '/api/v1/users/{username}/tokens': {
      post: {
        operationId: 'createToken',
        summary: 'Create token',
        description: 'Only the user the path names may call it.',
        security: [{ SessionCookie: [], CSRFToken: [] }, { AuthorizationHeaderToken: [] }],
        'x-dforge-scope': 'admin',
        'x-dforge-owner-only': true,
      },
    },
    '/api/v1/version': { get: { operationId: 'getVersion', summary: 'Get version' }, parameters: [] },
  },
}

function stubAPI(spec: unknown = SPEC) {
  return stubFetch({
    '/api/v1/docs': [{ slug: 'api', title: 'API', html: '' }],
    '/api/v1/docs/api': { slug: 'api', title: 'API', html: '<h2>Conventions</h2>' },
    '/openapi.json': spec,
  })
}

describe('the OpenAPI document', () => {
  it('flattens operations in path order, GET first, with who may call them', () => {
    const list = endpointsOf(SPEC)
    expect(list.map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /api/analytics/web-vitals',
      'GET /api/v1/repos/{owner}/{repo}/issues',
      'POST /api/v1/repos/{owner}/{repo}/issues',
      'POST /api/v1/users/{username}/tokens',
      'GET /api/v1/version',
    ])
    expect(list.map((e) => [e.access, e.scope])).toEqual([
      ['public', ''],
      ['public', ''],
      ['signedIn', 'write'],
      ['owner', 'admin'],
      ['public', ''],
    ])
    expect(list[0].body).toBe(true)
    expect(list[1].parameters.map((p) => p.name)).toEqual(['owner', 'repo', 'page'])
  })

  it('groups by the first path segment after /api/v1', () => {
    expect(groupOf('/api/v1/repos/{owner}/{repo}')).toEqual({ group: 'repos', groupPath: '/api/v1/repos' })
    expect(groupOf('/api/analytics/web-vitals')).toEqual({ group: 'analytics', groupPath: '/api/analytics' })
    expect(groupEndpoints(endpointsOf(SPEC)).map((g) => [g.groupPath, g.endpoints.length])).toEqual([
      ['/api/analytics', 1],
      ['/api/v1/repos', 2],
      ['/api/v1/users', 1],
      ['/api/v1/version', 1],
    ])
  })

  it('filters on every word, in method, path and summary alike', () => {
    const list = endpointsOf(SPEC)
    expect(filterEndpoints(list, '  ')).toHaveLength(5)
    expect(filterEndpoints(list, 'post ISSUES').map((e) => e.id)).toEqual(['createIssue'])
    expect(filterEndpoints(list, 'token create').map((e) => e.id)).toEqual(['createToken'])
    expect(filterEndpoints(list, 'nothing-like-it')).toEqual([])
  })
})

describe('ApiReferenceScreen', () => {
  it('renders each endpoint with its method, path, summary, parameters and sign-in', async () => {
    const fetchMock = stubAPI()
    renderScreen(<ApiReferenceScreen />, '/docs/api')
    const path = await screen.findAllByText('/api/v1/repos/{owner}/{repo}/issues')
    expect(path).toHaveLength(2)
    const create = path.map((p) => p.closest('li')!).find((li) => within(li).queryByText('POST'))!
    expect(within(create).getByText('Create issue')).toBeTruthy()
    expect(within(create).getByText('Sign-in, scope write')).toBeTruthy()
    expect(within(create).getByText('owner')).toBeTruthy()
    expect(within(create).getAllByText('path · string · required')).toHaveLength(2)
    expect(within(create).getByText('JSON request body')).toBeTruthy()
    const list = path.map((p) => p.closest('li')!).find((li) => within(li).queryByText('GET'))!
    expect(within(list).getByText('No sign-in')).toBeTruthy()
    expect(within(list).getByText('query · integer')).toBeTruthy()
    const token = screen.getByText('/api/v1/users/{username}/tokens').closest('li')!
    expect(within(token).getByText('Only the user in the path, scope admin')).toBeTruthy()
    expect(screen.getByRole('heading', { level: 3, name: '/api/v1/repos 2' })).toBeTruthy()
    expect(screen.getByText('Showing 5 of 5 endpoints')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Download the OpenAPI 3.0 document (openapi.json)' }).getAttribute('href')).toBe('/openapi.json')
    expect(await screen.findByRole('heading', { level: 2, name: 'Conventions' })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledWith('/openapi.json', expect.anything())
  })

  it('filters as you type and keeps the filter in the address', async () => {
    stubAPI()
    renderScreen(<ApiReferenceScreen />, '/docs/api')
    const box = await screen.findByRole('searchbox', { name: 'Filter endpoints' })
    fireEvent.change(box, { target: { value: 'post issues' } })
    expect(screen.getByText('Showing 1 of 5 endpoints')).toBeTruthy()
    expect(screen.getByText('Create issue')).toBeTruthy()
    expect(screen.queryByText('List issues')).toBeNull()
    expect(screen.queryByRole('heading', { level: 3, name: /\/api\/v1\/users/ })).toBeNull()
    expect(window.location.search).toBe('?q=post+issues')
    fireEvent.change(box, { target: { value: 'zzz' } })
    expect(screen.getByText('No endpoints match “zzz”.')).toBeTruthy()
  })

  it('opens with the filter named in the address', async () => {
    stubAPI()
    renderScreen(<ApiReferenceScreen />, '/docs/api?q=version')
    expect(await screen.findByText('Get version')).toBeTruthy()
    expect(screen.getByText('Showing 1 of 5 endpoints')).toBeTruthy()
    expect((screen.getByRole('searchbox', { name: 'Filter endpoints' }) as HTMLInputElement).value).toBe('version')
  })

  it('says so when the document cannot be loaded', async () => {
    stubFetch((input) =>
      Promise.resolve(String(input) === '/openapi.json' ? json({ message: 'boom', code: 'internal' }, 500) : json([], 200)),
    )
    renderScreen(<ApiReferenceScreen />, '/docs/api')
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy()
  })

  it('speaks Russian, plurals included', async () => {
    const i18n = initI18n()
    await act(() => i18n.changeLanguage('ru'))
    try {
      await i18n.loadNamespaces('docs')
      stubAPI()
      renderScreen(<ApiReferenceScreen />, '/docs/api')
      expect(await screen.findByText('Показано 5 из 5 эндпоинтов')).toBeTruthy()
      expect(screen.getByRole('searchbox', { name: 'Фильтр эндпоинтов' })).toBeTruthy()
      expect(screen.getByText('Нужен вход, область write')).toBeTruthy()
    } finally {
      await act(() => i18n.changeLanguage('en'))
    }
  })
})
