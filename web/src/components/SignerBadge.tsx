import { useTranslation } from 'react-i18next'
import { shortAddress } from '@/lib/chain/address'
import { useNodes } from '@/lib/nodes'
import { useSignedInUser } from '@/stores/useSignedInUser'

/** Who signed a record on chain: the signing key, and the delegate key it acted under ("" when the author signed it). */
export interface Signed {
  signer?: string
  delegation?: string
}

const same = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()

/**
 * Says who signed an issue, pull request or comment on chain: the viewer
 * themself, the author's own wallet, or a node the author authorized (named
 * by its registered URL, else its short address). Records from before
 * signers were kept show nothing.
 */
export function SignerBadge({ signer, delegation }: Signed) {
  const { t } = useTranslation()
  const me = useSignedInUser()?.walletAddress
  const nodes = useNodes(!!signer && !!delegation)
  if (!signer) return null
  let text: string
  if (delegation) {
    const node = nodes.data?.find((n) => same(n.operator, delegation))
    text = t('signer.viaNode', { node: node?.url.replace(/^https?:\/\//, '') || shortAddress(delegation) })
  } else {
    text = same(signer, me) ? t('signer.you') : t('signer.ownWallet')
  }
  return (
    <span className="badge signer-badge" title={t('signer.key', { address: signer })}>
      {text}
    </span>
  )
}
