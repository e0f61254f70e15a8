import { useTranslation } from 'react-i18next'
import { formatAmount, type Micro } from '@/lib/chain/amount'
import { useChainParams } from '@/lib/chain/api'

/**
 * Governance figures in the current language: basis points as a percentage
 * or a multiplier, and voting power, which is stake-weighted and so has the
 * token's decimals (without its symbol: power is not tokens).
 */
export function useGovFormat() {
  const { t, i18n } = useTranslation()
  const lang = i18n.resolvedLanguage
  const token = useChainParams().data?.token
  return {
    /** 3340 -> "33.4%". */
    percent: (bps: number) => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(bps / 10_000),
    /** 12500 -> "1.25×". */
    multiplier: (bps: number) => `${new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 4 }).format(bps / 10_000)}×`,
    power: (v: Micro) => (token ? formatAmount(v, token.decimals, lang) : t('state.loading')),
  }
}
