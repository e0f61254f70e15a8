/** The token and ecosystem pages this screen serves, by first path segment. */
// /wallet, /staking, /validators, /explorer and /treasury show chain data and
// have their own screens (features/wallet, features/explorer).
// /grants has its own screen (features/grants).
export const ECOSYSTEM_SLUGS = ['bounties', 'ambassadors', 'marketplace'] as const
export type EcosystemSlug = (typeof ECOSYSTEM_SLUGS)[number]

export function isEcosystemSlug(value: string): value is EcosystemSlug {
  return (ECOSYSTEM_SLUGS as readonly string[]).includes(value)
}

/** Where each link label (links.<key>) leads. */
export const LINK_TARGETS = {
  governance: '/governance',
  treasury: '/treasury',
  grants: '/grants',
  roadmap: '/roadmap',
  whitepaper: '/whitepaper',
  rewards: '/rewards',
  security: '/security',
  community: '/community',
  events: '/events',
  contact: '/help/contact',
  wallet: '/wallet',
  staking: '/staking',
  explorer: '/explorer',
  validators: '/validators',
  integrations: '/integrations',
  partners: '/partners',
  analytics: '/analytics',
  docs: '/docs',
  walletSignIn: '/docs/wallet-sign-in',
  runningNode: '/docs/running-a-node',
  architecture: '/docs/architecture',
} as const
export type LinkKey = keyof typeof LINK_TARGETS

interface EcosystemPage {
  links: LinkKey[]
}

// The texts of each page are pages.<slug>.* in the ecosystem namespace.
export const PAGES: Record<EcosystemSlug, EcosystemPage> = {
  bounties: { links: ['wallet', 'rewards', 'governance', 'roadmap', 'security'] },
  ambassadors: { links: ['community', 'events', 'contact'] },
  marketplace: { links: ['integrations', 'roadmap', 'contact'] },
}
