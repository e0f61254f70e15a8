import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Input } from '@/components/Input'

interface Qr {
  size: number
  path: string
}

/** The QR code of text as an SVG path; lean-qr is loaded only when a code is drawn. */
async function drawQr(text: string): Promise<Qr> {
  const [{ generate }, { toSvgPath }] = await Promise.all([import('lean-qr'), import('lean-qr/extras/svg')])
  const code = generate(text)
  return { size: code.size, path: toSvgPath(code) }
}

type QrState = { state: 'loading' } | { state: 'ready'; qr: Qr } | { state: 'failed' }

/** The address to receive tokens at: as text, as a QR code, and a button that copies it. */
export function ReceivePanel({ address, symbol }: { address: string; symbol: string }) {
  const { t } = useTranslation('wallet')
  const [qr, setQr] = useState<QrState>({ state: 'loading' })
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle')

  useEffect(() => {
    let live = true
    drawQr(address).then(
      (q) => live && setQr({ state: 'ready', qr: q }),
      () => live && setQr({ state: 'failed' }),
    )
    return () => {
      live = false
    }
  }, [address])

  const copyAddress = async () => {
    try {
      await navigator.clipboard.writeText(address)
      setCopy('copied')
    } catch {
      setCopy('failed')
    }
  }

  return (
    <section className="receive" aria-labelledby="receive-title">
      <h3 id="receive-title">{t('receive.title')}</h3>
      <p className="muted">{t('receive.lead', { symbol })}</p>
      <div className="receive-body">
        <div className="qr-box">
          {qr.state === 'ready' ? (
            <svg
              role="img"
              aria-label={t('receive.qr', { address })}
              viewBox={`-4 -4 ${qr.qr.size + 8} ${qr.qr.size + 8}`}
              width="200"
              height="200"
              shapeRendering="crispEdges"
            >
              <rect x="-4" y="-4" width={qr.qr.size + 8} height={qr.qr.size + 8} fill="#fff" />
              <path d={qr.qr.path} fill="#000" />
            </svg>
          ) : (
            <p className="muted" role={qr.state === 'failed' ? 'alert' : 'status'}>
              {t(qr.state === 'failed' ? 'receive.qrFailed' : 'receive.qrLoading')}
            </p>
          )}
        </div>
        <div className="receive-address">
          <label htmlFor="receive-address">{t('receive.address')}</label>
          <Input id="receive-address" className="input mono" value={address} readOnly onFocus={(e) => e.currentTarget.select()} />
          <div className="button-row">
            <Button variant="secondary" onClick={() => void copyAddress()}>
              {t('receive.copy')}
            </Button>
          </div>
          <p role="status" className={copy === 'failed' ? 'field-error' : 'muted'}>
            {copy === 'idle' ? '' : t(copy === 'copied' ? 'receive.copied' : 'receive.copyFailed')}
          </p>
        </div>
      </div>
    </section>
  )
}
