import { useTranslation } from 'react-i18next'
import { formatAmount, type Micro } from './amount'
import { useChainParams } from './api'
import { dateTimeFormat, numberFormat } from '@/lib/intl'

/**
 * Formatters in the current language: amounts with the token's decimals and
 * symbol (from the chain params), times and counts. Until the params are in,
 * an amount reads as loading rather than as a wrong number.
 */
export function useChainFormat() {
  const { t, i18n } = useTranslation()
  const params = useChainParams()
  const lang = i18n.resolvedLanguage
  const token = params.data?.token
  return {
    token,
    amount: (v: Micro) => (token ? `${formatAmount(v, token.decimals, lang)} ${token.symbol}` : t('state.loading')),
    count: (n: number | bigint) => numberFormat(lang).format(n),
    time: (iso: string) => {
      const d = new Date(iso)
      return Number.isNaN(d.getTime()) ? iso : dateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' }).format(d)
    },
  }
}
