import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'
import { AddressLink } from '@/components/ChainLinks'
import type { ProposalStatus, VoteOption } from './proposals'

/** A proposal's status as a label; each status has its own colour. */
export function StatusBadge({ status }: { status: ProposalStatus }) {
  const { t } = useTranslation('governance')
  return <span className={`badge proposal-status status-${status}`}>{t(`status.${status}`)}</span>
}

export function OptionBadge({ option }: { option: VoteOption }) {
  const { t } = useTranslation('governance')
  return <span className={`badge vote-option option-${option}`}>{t(`options.${option}`)}</span>
}

/** An account by its username when it has one (linking to the user's page), else by its address. */
export function AccountName({ address, name }: { address: string; name: string }) {
  if (name) return <PreloadLink to={`/user/${encodeURIComponent(name)}`}>{name}</PreloadLink>
  return <AddressLink address={address} />
}
