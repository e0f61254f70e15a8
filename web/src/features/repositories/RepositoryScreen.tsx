import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Markdown } from '@/components/Markdown'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { NoDescription } from '@/components/EmptyStates'
import { Input } from '@/components/Input'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { HiddenNotice, ReportButton } from '@/features/moderation'
import { RepoTopics } from '@/features/topics'
import { type RepoCounts, type Repository, repoHref, repoKeys, useCounts, useReadme, useRepoById } from '@/lib/forge/api'
import { CodeToolbar, CodeView } from './CodeBrowser'
import { ComparePrompt } from './ComparePrompt'
import { useForgeFormat } from '@/lib/forge/format'
import { nav } from '@/lib/forge/nav'
import { LatestCommit } from './LatestCommit'
import { NodesPanel } from './NodesPanel'
import { isReplicating, NotOnThisNode, Replicating } from './Replicating'
import { RepoFrame, RepoNotFound, RepoPage } from './RepoLayout'

/**
 * A repository's home: about, clone URL, counts, the file tree of the
 * default branch and the README. Serves /:owner/:repo and the spec's
 * /repository/:id (a numeric id, answered with the canonical URL).
 */
export default function RepositoryScreen() {
  const { params } = useRoute()
  if (params.id !== undefined) return <RepositoryById id={params.id} />
  return (
    <RepoPage section="code" heading>
      {(repo) => <RepoHome repo={repo} />}
    </RepoPage>
  )
}

function RepositoryById({ id }: { id: string }) {
  const query = useRepoById(id)
  const client = useQueryClient()
  const repo = query.data
  useEffect(() => {
    if (!repo) return
    client.setQueryData(repoKeys.repo(repo.owner.login, repo.name), repo)
    nav.replace(repoHref.home(repo.owner.login, repo.name))
  }, [client, repo])
  if (!/^\d+$/.test(id) || query.error instanceof NotFoundError) return <RepoNotFound name={id} />
  return (
    <QueryState query={query}>
      {(r) => (
        <RepoFrame repo={r} section="code" heading>
          <RepoHome repo={r} />
        </RepoFrame>
      )}
    </QueryState>
  )
}

/** The clone URL over HTTP: the server's, or this origin's /{owner}/{repo}.git. */
export function cloneUrl(repo: Repository): string {
  return repo.clone_url || `${window.location.origin}/${repo.owner.login}/${repo.name}.git`
}

function RepoHome({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  useDocumentTitle(repo.description ? `${repo.full_name}: ${repo.description}` : repo.full_name)
  return (
    <div className="repo-home">
      <div className="repo-main stack">
        <ComparePrompt repo={repo} />
        <RepoCode repo={repo} />
      </div>
      <aside className="repo-side stack" aria-label={t('home.about')}>
        <Card as="section" aria-labelledby="repo-about">
          <h2 id="repo-about">{t('home.about')}</h2>
          {repo.hidden ? <HiddenNotice reason={repo.hidden_reason} /> : repo.description ? <p>{repo.description}</p> : <NoDescription />}
          {repo.website && <Website url={repo.website} />}
          <RepoTopics repo={repo} />
          <ReportButton kind="repository" target={repo.full_name} label={repo.full_name} />
        </Card>
        <Counts repo={repo} />
        <NodesPanel repo={repo} />
      </aside>
    </div>
  )
}

/** The repository's website, a link only for http(s) (the chain accepts no other). */
function Website({ url }: { url: string }) {
  const { t } = useTranslation('website')
  if (!/^https?:\/\//i.test(url)) return null
  return (
    <p>
      <a href={url} rel="noopener noreferrer nofollow ugc" target="_blank" aria-label={t('link', { url })}>
        {url.replace(/^https?:\/\//i, '')}
      </a>
    </p>
  )
}

/** The clone URL, the default branch's newest commit, tree and README; while the git data is on its way to this node, its progress instead. */
function RepoCode({ repo }: { repo: Repository }) {
  if (isReplicating(repo)) return <Replicating repo={repo} />
  if (repo.has_git_data === false && !repo.private) return <NotOnThisNode />
  const clone = <CloneBox url={cloneUrl(repo)} sshUrl={repo.ssh_url} />
  if (repo.empty) {
    return (
      <>
        {clone}
        <EmptyRepository repo={repo} />
      </>
    )
  }
  return (
    <>
      <CodeToolbar repo={repo} path="" gitRef={repo.default_branch} hrefFor={(r) => repoHref.src(repo.owner.login, repo.name, '', r === repo.default_branch ? undefined : r)} />
      {clone}
      <LatestCommit repo={repo} gitRef={repo.default_branch} path="" />
      <CodeView repo={repo} path="" gitRef={repo.default_branch} />
      <Readme repo={repo} />
    </>
  )
}

/**
 * The whole clone URL in a read-only box with a copy button; with sshUrl,
 * a choice of HTTPS or SSH. The confirmation is announced, and when the
 * clipboard refuses, the URL is selected for the user to copy.
 */
export function CloneBox({ url: httpsUrl, sshUrl }: { url: string; sshUrl?: string }) {
  const { t } = useTranslation(['repositories', 'sshkeys'])
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [protocol, setProtocol] = useState<'https' | 'ssh'>('https')
  const url = protocol === 'ssh' && sshUrl ? sshUrl : httpsUrl
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  // The confirmation goes after a while, so copying again is announced again.
  useEffect(() => {
    if (copied !== 'yes') return
    const timer = setTimeout(() => setCopied(null), COPIED_MS)
    return () => clearTimeout(timer)
  }, [copied])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      setCopied('yes')
    } catch {
      setCopied('failed')
      input.current?.focus()
      input.current?.select()
    }
  }
  const choose = (p: 'https' | 'ssh') => {
    setProtocol(p)
    setCopied(null)
  }
  return (
    <div className="clone-box">
      <label htmlFor={id}>{url === httpsUrl ? t('home.cloneHttp') : t('sshkeys:clone.labelSsh')}</label>
      {sshUrl && (
        <div className="clone-protocols" role="group" aria-label={t('sshkeys:clone.protocol')}>
          {(['https', 'ssh'] as const).map((p) => (
            <Button key={p} size="sm" variant={protocol === p ? 'secondary' : 'ghost'} aria-pressed={protocol === p} onClick={() => choose(p)}>
              {t(`sshkeys:clone.${p}`)}
            </Button>
          ))}
        </div>
      )}
      <div className="clone-row">
        <Input ref={input} id={id} className="input mono" readOnly value={url} title={url} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <Button size="sm" variant="outline" onClick={copy}>
          {copied === 'yes' ? t('home.copiedShort') : t('home.copy')}
        </Button>
      </div>
      <span role="status" className={copied === 'failed' ? 'field-error' : 'muted'}>
        {copied === 'yes' ? t('home.copied') : copied === 'failed' ? t('home.copyFailed') : ''}
      </span>
    </div>
  )
}

/** How long "Copied" stays. */
const COPIED_MS = 4000

function EmptyRepository({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const url = cloneUrl(repo)
  const branch = repo.default_branch || 'main'
  return (
    <Card as="section" aria-labelledby="repo-empty">
      <h2 id="repo-empty">{t('home.empty.title')}</h2>
      <p>{t('home.empty.text')}</p>
      <pre className="command">
        <code>{`git init\ngit checkout -b ${branch}\ngit add .\ngit commit -m "First commit"\ngit remote add origin ${url}\ngit push -u origin ${branch}`}</code>
      </pre>
      <p className="muted">{t('home.empty.token')}</p>
    </Card>
  )
}

function Readme({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const readme = useReadme(repo.owner.login, repo.name, repo.default_branch)
  return (
    <QueryState query={readme} defer>
      {(r) =>
        r === null ? (
          <p className="muted">{t('home.noReadme')}</p>
        ) : (
          <Card as="section" aria-label={r.path} className="readme">
            <h2 className="readme-title">{r.path}</h2>
            <Markdown html={r.html} />
          </Card>
        )
      }
    </QueryState>
  )
}

const COUNT_LINKS: { key: keyof RepoCounts; to?: (o: string, n: string) => string }[] = [
  { key: 'commits', to: (o, n) => repoHref.commits(o, n) },
  { key: 'branches', to: (o, n) => repoHref.section(o, n, 'branches') },
  { key: 'tags', to: (o, n) => repoHref.section(o, n, 'tags') },
  { key: 'stars' },
  { key: 'forks' },
  { key: 'watchers' },
  { key: 'open_issues', to: (o, n) => repoHref.section(o, n, 'issues') },
  { key: 'open_pulls', to: (o, n) => repoHref.section(o, n, 'pulls') },
]

function Counts({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const counts = useCounts(repo.owner.login, repo.name)
  return (
    <Card as="section" aria-labelledby="repo-counts">
      <h2 id="repo-counts">{t('home.counts.title')}</h2>
      <QueryState query={counts}>
        {(c) => (
          <dl className="repo-counts">
            {COUNT_LINKS.map(({ key, to }) => (
              <div key={key}>
                <dt>{to ? <PreloadLink to={to(repo.owner.login, repo.name)}>{t(`home.counts.${key}`)}</PreloadLink> : t(`home.counts.${key}`)}</dt>
                <dd>{fmt.count(c[key] ?? 0)}</dd>
              </div>
            ))}
          </dl>
        )}
      </QueryState>
    </Card>
  )
}
