import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'
import { Spinner } from '@/components/Spinner'
import { shortHash } from '@/lib/chain/address'
import type { ChainParams } from '@/lib/chain/api'
import { explorerHref } from './ChainLinks'
import type { TxKind, TxState } from '@/lib/chain/tx'
import './data.css'

/** What a form's transaction is doing: its step, its block once committed, or why it failed. */
export function TxStatus({ state, kind, params }: { state: TxState; kind: TxKind; params: ChainParams }) {
  const { t } = useTranslation('wallet')
  switch (state.step) {
    case 'idle':
      return null
    case 'preparing':
    case 'signing':
    case 'submitting':
      return (
        <p className="tx-status inline-loading" role="status">
          <Spinner size="sm" /> <span>{t(`tx.${state.step}`)}</span>
        </p>
      )
    case 'committed': {
      const { result } = state
      // The chain unbonds an Unstake of block H until H + unbondingBlocks.
      const maturesAt = kind === 'Unstake' && params.unbondingBlocks ? result.height + params.unbondingBlocks : undefined
      return (
        <div className="tx-status alert-success" role="status">
          <p>{t('tx.committed', { height: result.height })}</p>
          {kind === 'Unstake' && maturesAt !== undefined && <p>{t('tx.maturesAt', { height: maturesAt })}</p>}
          <PreloadLink to={explorerHref.tx(result.hash)} className="mono">
            {t('tx.view', { hash: shortHash(result.hash) })}
          </PreloadLink>
        </div>
      )
    }
    case 'error': {
      const { error } = state
      return (
        <div className="tx-status alert-error" role="alert">
          {error.kind === 'server' ? (
            <>
              <p>{error.message}</p>
              <p className="muted">{t('tx.code', { code: error.code })}</p>
            </>
          ) : error.kind === 'failed' ? (
            <p>{t('tx.failed', { log: error.log })}</p>
          ) : error.kind === 'other' ? (
            <p>{t('tx.error', { message: error.message })}</p>
          ) : (
            <p>{t(`tx.${error.kind}`)}</p>
          )}
        </div>
      )
    }
  }
}
