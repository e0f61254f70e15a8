import { useMutation, useQuery } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { getJSON, postJSON } from '@/lib/http'

export type FaqItem = Schema<'pages.FAQItem'>

export type FaqGroup = Schema<'pages.FAQGroup'>

export function useFaq() {
  return useQuery({ queryKey: ['faq'], queryFn: () => getJSON<FaqGroup[]>('/api/v1/faq') })
}

/** What POST /api/v1/contact takes. */
export type ContactMessage = Schema<'support.Message'>

export function useSendContact() {
  return useMutation({ mutationFn: (m: ContactMessage) => postJSON<{ id: number }>('/api/v1/contact', m) })
}
