import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { SignerBadge } from '@/components/SignerBadge'
import { Body } from '@/features/issues'
import { RepoPage } from '@/features/repositories'
import { ipfsHref, type Repository } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { type Release, useReleases } from './api'
import { AssetUpload, DeleteAsset, DeleteRelease, PublishRelease, ReleaseForm } from './ReleaseForm'
import './releases.css'

const LIMIT = 10

/** A repository's releases: notes, assets with sizes, downloads and CIDs; writers create, edit and delete them. */
export default function ReleasesScreen() {
  return <RepoPage section="releases">{(repo) => <Releases repo={repo} />}</RepoPage>
}

function Releases({ repo }: { repo: Repository }) {
  const { t } = useTranslation('releases')
  useDocumentTitle(t('title', { repo: repo.full_name }))
  const [pageParam, setPage] = useUrlParam('page', '1')
  const page = Math.max(1, Number(pageParam) || 1)
  const releases = useReleases(repo.owner.login, repo.name, page, LIMIT)
  const [creating, setCreating] = useState(false)
  const canWrite = Boolean(repo.permissions?.push)
  return (
    <div className="stack">
      <PageHeader
        title={t('heading')}
        actions={
          canWrite && !creating ? (
            <Button onClick={() => setCreating(true)}>{t('new')}</Button>
          ) : undefined
        }
      />
      {creating && <ReleaseForm repo={repo} onDone={() => setCreating(false)} />}
      <Paged query={releases} page={page} onPage={(p) => setPage(String(p))} limit={LIMIT} label={t('heading')} empty={t('empty')}>
        {(list) => (
          <ul className="plain-list stack">
            {list.map((r) => (
              <li key={r.id}>
                <ReleaseCard repo={repo} release={r} canWrite={canWrite} />
              </li>
            ))}
          </ul>
        )}
      </Paged>
    </div>
  )
}

function ReleaseCard({ repo, release, canWrite }: { repo: Repository; release: Release; canWrite: boolean }) {
  const { t } = useTranslation('releases')
  const fmt = useForgeFormat()
  const [editing, setEditing] = useState(false)
  if (editing) return <ReleaseForm repo={repo} release={release} onDone={() => setEditing(false)} />
  return (
    <Card>
      <article className="release" aria-labelledby={`release-${release.id}`}>
        <header className="release-head">
          <h2 id={`release-${release.id}`}>{release.name || release.tag_name}</h2>
          <span className="badge">{release.tag_name}</span>
          {release.draft && <span className="badge">{t('draft')}</span>}
          {release.prerelease && <span className="badge">{t('prerelease')}</span>}
          <span className="muted">
            {t(release.draft ? 'draftedBy' : 'published', { who: release.author.login })}{' '}
            <time dateTime={release.published_at} title={fmt.exact(release.published_at)}>
              {fmt.ago(release.published_at)}
            </time>
          </span>
          <SignerBadge signer={release.signer} delegation={release.delegation} />
        </header>
        {release.draft && <p className="muted">{t('draftNote')}</p>}
        <Body body={release.body} />
        <h3>{t('assets.heading', { n: release.assets.length })}</h3>
        <table className="release-assets">
          <caption className="visually-hidden">{t('assets.caption', { tag: release.tag_name })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('assets.name')}</th>
              <th scope="col">{t('assets.size')}</th>
              <th scope="col">{t('assets.downloads')}</th>
              <th scope="col">{t('assets.cid')}</th>
              {canWrite && <th scope="col">{t('assets.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {release.assets.map((a) => (
              <tr key={a.id}>
                <td>
                  <a href={a.browser_download_url} download>
                    {a.name}
                  </a>
                </td>
                <td>{fmt.bytes(a.size)}</td>
                <td>{a.download_count}</td>
                <td>
                  {a.cid ? (
                    <a className="mono" href={ipfsHref(a.cid)} title={t('assets.sha256', { sha: a.sha256 })}>
                      {a.cid.slice(0, 16)}…
                    </a>
                  ) : (
                    // A private repository's or a draft's file is no IPFS block: its digest only.
                    <span className="mono" title={t('assets.sha256', { sha: a.sha256 })}>
                      {a.sha256.slice(0, 16)}…
                    </span>
                  )}
                </td>
                {canWrite && (
                  <td>
                    <DeleteAsset repo={repo} release={release} asset={a} />
                  </td>
                )}
              </tr>
            ))}
            <tr>
              <td>
                <a href={release.zipball_url}>{t('assets.zip')}</a>
              </td>
              <td colSpan={canWrite ? 4 : 3} />
            </tr>
            <tr>
              <td>
                <a href={release.tarball_url}>{t('assets.tar')}</a>
              </td>
              <td colSpan={canWrite ? 4 : 3} />
            </tr>
          </tbody>
        </table>
        {canWrite && (
          <footer className="button-row">
            {release.draft && <PublishRelease repo={repo} release={release} />}
            <AssetUpload repo={repo} release={release} />
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              {t('edit')}
            </Button>
            <DeleteRelease repo={repo} release={release} />
          </footer>
        )}
      </article>
    </Card>
  )
}

