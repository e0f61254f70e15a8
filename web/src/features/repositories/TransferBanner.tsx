import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { type Repository, repoHref } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useAcceptTransfer, useRejectTransfer } from './api'
import { transferRole } from './transferApi'

/**
 * A pending transfer of the repository (Gitea's): its recipient accepts or
 * rejects it here; its owner sees it waiting and may cancel it. Anyone
 * else sees nothing: the offer is between the two.
 */
export function TransferBanner({ repo }: { repo: Repository }) {
  const user = useSignedInUser()
  const role = transferRole(repo, user?.username)
  if (!role || !repo.repo_transfer) return null
  return <PendingTransfer repo={repo} role={role} />
}

function PendingTransfer({ repo, role }: { repo: Repository; role: 'recipient' | 'owner' }) {
  const { t } = useTranslation('repositories')
  const offer = repo.repo_transfer!
  const accept = useAcceptTransfer(repo.owner.login, repo.name, (moved) => nav.go(repoHref.home(moved.owner.login, moved.name)))
  const reject = useRejectTransfer(repo.owner.login, repo.name)
  const busy = accept.isPending || reject.isPending
  const failed = accept.error ?? reject.error
  return (
    <Card as="section" className="repo-transfer" aria-label={t('transfer.label')}>
      {role === 'recipient' ? (
        <>
          <p>{t('transfer.incoming', { doer: offer.doer.login, recipient: offer.recipient.login })}</p>
          <div className="button-row">
            <Button size="sm" variant="primary" disabled={busy} onClick={() => accept.mutate()}>
              {accept.isPending ? t('transfer.accepting') : t('transfer.accept')}
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => reject.mutate()}>
              {reject.isPending ? t('transfer.working') : t('transfer.reject')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p>{t('transfer.outgoing', { recipient: offer.recipient.login })}</p>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => reject.mutate()}>
            {reject.isPending ? t('transfer.working') : t('transfer.cancel')}
          </Button>
        </>
      )}
      {failed && (
        <p className="alert-error" role="alert">
          {errorText(failed)}
        </p>
      )}
    </Card>
  )
}
