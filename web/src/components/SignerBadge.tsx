import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { shortAddress } from '@/lib/chain/address'
import { useNodesWhenWanted } from '@/lib/nodes'
import { useSignedInUser } from '@/stores/useSignedInUser'

/** Who signed a record on chain: the signing key, and the delegate key it acted under ("" when the author signed it). */
export interface Signed {
  signer?: string
  delegation?: string
}

const same = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()

/**
 * Says who signed a record on chain (a repository, label, milestone, release,
 * issue, pull request, review or comment): the viewer themself, the author's
 * own wallet, or a node the author authorized. Records from before signers
 * were kept show nothing.
 *
 * A node is named by its short address until the badge is hovered, focused
 * or opened: only then is the node registry asked for its URL, once for every
 * badge of the page (one shared query). So the pages that show a badge on
 * every visit (each repository page's header, the labels and milestones
 * lists) make no registry request of their own; a registry another part of
 * the page already loaded names the node at once. Opening the badge (a
 * button, so the keyboard reaches it) shows the full signing key.
 */
export function SignerBadge({ signer, delegation }: Signed) {
  const { t } = useTranslation()
  const me = useSignedInUser()?.walletAddress
  const [asked, setAsked] = useState(false)
  const [open, setOpen] = useState(false)
  const nodes = useNodesWhenWanted(asked && !!delegation)
  if (!signer) return null
  let text: string
  if (delegation) {
    const node = nodes.data?.find((n) => same(n.operator, delegation))
    text = t('signer.viaNode', { node: node?.url.replace(/^https?:\/\//, '') || shortAddress(delegation) })
  } else {
    text = same(signer, me) ? t('signer.you') : t('signer.ownWallet')
  }
  const key = t('signer.key', { address: signer })
  const ask = () => setAsked(true)
  return (
    <span className="signer">
      <button
        type="button"
        className="badge signer-badge"
        title={key}
        aria-expanded={open}
        onMouseEnter={ask}
        onFocus={ask}
        onClick={() => {
          ask()
          setOpen(!open)
        }}
      >
        {text}
      </button>
      {open && <span className="signer-key muted">{key}</span>}
    </span>
  )
}
