import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { ChainTable, type Column } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type Repository, repoHref, type Tag, useTags } from '@/lib/forge/api'
import { shortSha, useForgeFormat } from '@/lib/forge/format'
import { RepoPage } from './RepoLayout'
import { NewTagForm, TagRowActions } from './TagActions'

/** A repository's tags, each with its commit and archive downloads. */
export default function TagsScreen() {
  return <RepoPage section="tags">{(repo) => <Tags repo={repo} />}</RepoPage>
}

function Tags({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const { t: tw } = useTranslation('tagwrites')
  const tags = useTags(repo.owner.login, repo.name)
  useDocumentTitle(t('tags.title', { repo: repo.full_name }))
  const o = repo.owner.login
  const columns: Column<Tag>[] = [
    { heading: t('tags.columns.name'), cell: (tag) => <PreloadLink to={repoHref.src(o, repo.name, '', tag.name)}>{tag.name}</PreloadLink> },
    {
      heading: t('tags.columns.commit'),
      // A tag of a tree or a blob names no commit.
      cell: ({ commit }) =>
        commit ? (
          <PreloadLink className="mono" to={repoHref.commit(o, repo.name, commit.sha)}>
            {shortSha(commit.sha)}
          </PreloadLink>
        ) : (
          '—'
        ),
    },
    { heading: t('tags.columns.date'), cell: (tag) => <TagDate tag={tag} /> },
    {
      heading: t('tags.columns.downloads'),
      cell: (tag) => (
        <span className="button-row">
          {tag.zipball_url && <a href={tag.zipball_url}>{t('tags.zip')}</a>}
          {tag.tarball_url && <a href={tag.tarball_url}>{t('tags.tar')}</a>}
          {!tag.zipball_url && !tag.tarball_url && '—'}
        </span>
      ),
    },
  ]
  const canPush = Boolean(repo.permissions?.push)
  if (canPush) columns.push({ heading: tw('actions'), cell: (tag) => <TagRowActions repo={repo} tag={tag} /> })
  return (
    <div className="stack">
      <PageHeader title={t('tags.heading')} />
      {canPush && <NewTagForm repo={repo} />}
      <QueryState query={tags}>
        {(list) => (list.length === 0 ? <EmptyState message={t('tags.empty')} /> : <ChainTable rows={list} rowKey={(tag) => tag.name} columns={columns} caption={t('tags.heading')} />)}
      </QueryState>
    </div>
  )
}

/** When a tag's commit was made, relative, the exact date in its title; and who tagged it when, for an annotated tag. */
function TagDate({ tag }: { tag: Tag }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const created = tag.commit?.created
  const tagger = tag.tagger
  if (!created && !tagger) return <>—</>
  return (
    <>
      {created && (
        <time dateTime={created} title={fmt.exact(created)}>
          {fmt.ago(created)}
        </time>
      )}
      {tagger && (
        <div className="muted" title={fmt.exact(tagger.date)}>
          {t('tags.tagged', { when: fmt.ago(tagger.date), name: tagger.name })}
        </div>
      )}
    </>
  )
}
