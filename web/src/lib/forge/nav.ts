/**
 * Navigation is a full page load (no client router). Kept on an object so
 * tests can watch where a page sends the user.
 */
export const nav = {
  go(url: string): void {
    window.location.assign(url)
  },
  /** Puts the canonical URL in the address bar without a reload (e.g. /repository/7 -> /ada/forge). */
  replace(url: string): void {
    if (window.location.pathname + window.location.search !== url) window.history.replaceState(window.history.state, '', url)
  },
}

// The chain's reserved usernames (internal/chain/names: reserved), which the
// server's page matcher also refuses as owners, so "/explore/x" is a missing
// page there and here alike.
const RESERVED = new Set([
  'about', 'admin', 'administrator', 'analytics', 'api', 'assets', 'blog', 'bounties', 'careers',
  'changelog', 'community', 'dashboard', 'dforge', 'docs', 'events', 'explore', 'explorer', 'faq',
  'feed', 'forum', 'ghost', 'governance', 'grants', 'groups', 'help', 'home', 'ipfs', 'issues',
  'login', 'logout', 'marketplace', 'messages', 'metrics', 'monitoring', 'new', 'notifications',
  'org', 'playground', 'pricing', 'privacy', 'profile', 'pulls', 'repo', 'reports', 'rewards',
  'root', 'search', 'security', 'settings', 'staking', 'status', 'support', 'system', 'team',
  'terms', 'treasury', 'user', 'users', 'validators', 'wallet',
  'favicon.ico', 'favicon.svg', 'icons', 'index.html', 'manifest.webmanifest', 'music', 'registerSW.js',
  'robots.txt', 'sw.js',
].map((n) => n.toLowerCase()))

/** A username's shape (Gitea's): 1 to 39 letters, digits and single '-', '_' or '.' between them. */
const USERNAME = /^[A-Za-z0-9]+([-_.][A-Za-z0-9]+)*$/

/** Whether name could own a repository, as the server's names.CanOwn decides for /:owner/... pages. */
export function canOwn(name: string): boolean {
  return name.length <= 39 && USERNAME.test(name) && !RESERVED.has(name.toLowerCase())
}
