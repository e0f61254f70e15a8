// What this node answers today (internal/api/api.go and internal/web/server.go).
// Methods and paths are identifiers, so they stay out of the translations; each
// purpose is the translated string api.endpoints.<id>.
export const ENDPOINTS = [
  { id: 'version', method: 'GET', path: '/api/v1/version' },
  { id: 'page', method: 'GET', path: '/api/v1/pages/{slug}' },
  { id: 'docs', method: 'GET', path: '/api/v1/docs' },
  { id: 'doc', method: 'GET', path: '/api/v1/docs/{slug}' },
  { id: 'blog', method: 'GET', path: '/api/v1/blog' },
  { id: 'post', method: 'GET', path: '/api/v1/blog/{slug}' },
  { id: 'faq', method: 'GET', path: '/api/v1/faq' },
  { id: 'markdown', method: 'POST', path: '/api/v1/markdown' },
  { id: 'contact', method: 'POST', path: '/api/v1/contact' },
  { id: 'vitalsPost', method: 'POST', path: '/api/analytics/web-vitals' },
  { id: 'vitals', method: 'GET', path: '/api/v1/analytics/web-vitals' },
  { id: 'healthz', method: 'GET', path: '/healthz' },
  { id: 'metrics', method: 'GET', path: '/metrics' },
] as const
