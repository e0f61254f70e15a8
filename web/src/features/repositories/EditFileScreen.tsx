import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { type Repository, useContents } from '@/lib/forge/api'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { Breadcrumbs } from './CodeBrowser'
import { fromBase64 } from './contentsApi'
import { type EditMode, FileEditor } from './FileEditor'
import { RepoPage } from './RepoLayout'

const MODES: Record<string, EditMode> = { editFile: 'edit', newFile: 'new', deleteFile: 'delete' }

/**
 * /:owner/:repo/_edit/{path}, /_new/{dir} and /_delete/{path}, each at
 * ?ref= (a branch; the default one without): the editor, for people who
 * may push to the repository.
 */
export default function EditFileScreen() {
  const route = useRoute()
  const mode = MODES[route.screen] ?? 'edit'
  const path = (route.params['*'] ?? '').split('/').filter(Boolean).join('/')
  const refParam = new URLSearchParams(window.location.search).get('ref') || undefined
  return <RepoPage section="code">{(repo) => <EditFile repo={repo} mode={mode} path={path} branch={refParam ?? repo.default_branch} />}</RepoPage>
}

function EditFile({ repo, mode, path, branch }: { repo: Repository; mode: EditMode; path: string; branch: string }) {
  const { t } = useTranslation('code')
  const user = useSignedInUser()
  const title = t(`editor.title.${mode}`)
  useDocumentTitle(`${title} · ${repo.full_name}`)
  let body
  if (!user) body = <SignInNotice message={t('editor.signIn')} />
  else if (!repo.permissions?.push) body = <EmptyState message={t('editor.readOnly')} />
  else if (mode === 'new') body = <FileEditor repo={repo} mode="new" branch={branch} path={path} />
  else body = <ExistingFile repo={repo} mode={mode} path={path} branch={branch} />
  return (
    <div className="stack">
      <PageHeader title={title} />
      <Breadcrumbs repo={repo} path={path} refParam={branch === repo.default_branch ? undefined : branch} />
      {body}
    </div>
  )
}

/** Loads the file to edit or delete: its blob id, and its text to edit. */
function ExistingFile({ repo, mode, path, branch }: { repo: Repository; mode: EditMode; path: string; branch: string }) {
  const { t } = useTranslation('code')
  const file = useContents(repo.owner.login, repo.name, path, branch)
  if (file.error instanceof NotFoundError) return <EmptyState message={t('editor.missing', { path, branch })} />
  return (
    <QueryState query={file}>
      {(entry) => {
        if (Array.isArray(entry) || entry.type !== 'file') return <EmptyState message={t('editor.notAFile', { path })} />
        if (mode === 'edit' && (entry.binary || entry.too_large || entry.content == null)) return <EmptyState message={t('editor.notText', { path })} />
        const text = mode === 'edit' ? fromBase64(entry.content ?? '') : ''
        return <FileEditor repo={repo} mode={mode} branch={branch} path={path} sha={entry.sha} initial={text} />
      }}
    </QueryState>
  )
}
