import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { SignInNotice } from '@/components/SignInNotice'
import { RepoPage } from '@/features/repositories'
import { canMaintain, isOwner, type Repository } from '@/lib/forge/api'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { repoHooks } from './api'
import { WebhooksPanel } from './WebhooksPanel'

/** A repository's webhooks (settings → webhooks): its administrators list, add, edit, test and delete them and read their delivery logs. */
export default function WebhooksScreen() {
  const { t } = useTranslation('webhooks')
  const user = useSignedInUser()
  return (
    <RepoPage section="settings">
      {(repo) =>
        !user ? (
          <SignInNotice message={t('signIn')} />
        ) : isOwner(repo, user.username) || canMaintain(repo) ? (
          <RepoWebhooks repo={repo} />
        ) : (
          <EmptyState message={t('forbidden')} />
        )
      }
    </RepoPage>
  )
}

function RepoWebhooks({ repo }: { repo: Repository }) {
  const { t } = useTranslation('webhooks')
  useDocumentTitle(t('title', { repo: repo.full_name }))
  return <WebhooksPanel scope={repoHooks(repo.owner.login, repo.name)} intro={t('intro')} />
}
