import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { errorText } from '@/lib/http'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { TicketConversation } from './TicketConversation'
import { useMyTicket, useMyTicketActions } from './tickets'
import './help.css'

/** /help/tickets/:id: one of the signed-in user's support tickets, its thread, a reply box, close and reopen. */
export default function TicketScreen() {
  const { t } = useTranslation('tickets')
  const user = useSignedInUser()
  const id = useRoute().params.id ?? ''
  useDocumentTitle(t('ticketTitle', { id }))
  return (
    <div className="stack ticket-page">
      <PreloadLink to="/help">{t('backToHelp')}</PreloadLink>
      {user ? <Ticket id={id} /> : <SignInNotice message={t('signedOut')} />}
    </div>
  )
}

function Ticket({ id }: { id: string }) {
  const { t } = useTranslation('tickets')
  const query = useMyTicket(id)
  const { reply, setStatus } = useMyTicketActions(id)
  return (
    <QueryState query={query}>
      {(th) => (
        <>
          <PageHeader title={th.subject} lead={t('ticketTitle', { id: th.id })} />
          <TicketConversation
            thread={th}
            staff={false}
            reply={reply}
            actions={
              <>
                <Button size="sm" variant="outline" disabled={setStatus.isPending} onClick={() => setStatus.mutate(th.status === 'closed' ? 'open' : 'closed')}>
                  {th.status === 'closed' ? t('reopen') : t('close')}
                </Button>
                {setStatus.isError && (
                  <span className="field-error" role="alert">
                    {errorText(setStatus.error)}
                  </span>
                )}
              </>
            }
          />
        </>
      )}
    </QueryState>
  )
}
