import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'

const FOOTER_LINKS: { group: string; links: string[] }[] = [
  { group: 'product', links: ['explore', 'governance', 'rewards', 'leaderboard', 'pricing', 'roadmap', 'changelog'] },
  { group: 'developers', links: ['docs', 'api', 'tutorials', 'code-examples', 'playground', 'integrations', 'status'] },
  { group: 'community', links: ['community', 'forum', 'blog', 'events', 'grants', 'bounties', 'ambassadors'] },
  { group: 'company', links: ['about', 'team', 'careers', 'press', 'partners', 'whitepaper', 'help'] },
  { group: 'legal', links: ['terms', 'privacy', 'license', 'security'] },
]

export function Footer() {
  const { t } = useTranslation()
  return (
    <footer className="footer">
      <div className="container">
        <nav className="footer-links" aria-label={t('footer.label')}>
          {FOOTER_LINKS.map(({ group, links }) => (
            <div key={group}>
              <h2 className="footer-heading">{t(`footer.groups.${group}`)}</h2>
              <ul>
                {links.map((link) => (
                  <li key={link}>
                    <PreloadLink to={`/${link}`}>{t(`footer.links.${link}`)}</PreloadLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <div className="footer-bottom">
          <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
          <p>{t('footer.poweredBy')}</p>
          <p>{t('footer.storage')}</p>
        </div>
      </div>
    </footer>
  )
}
