import { useMutation, useQuery } from '@tanstack/react-query'
import { getJSON, postJSON } from '@/lib/http'

export interface FaqItem {
  question: string
  html: string
  text: string
}

export interface FaqGroup {
  id: string
  title: string
  items: FaqItem[]
}

export function useFaq() {
  return useQuery({ queryKey: ['faq'], queryFn: () => getJSON<FaqGroup[]>('/api/v1/faq') })
}

export interface ContactMessage {
  name: string
  email: string
  subject: string
  message: string
}

export function useSendContact() {
  return useMutation({ mutationFn: (m: ContactMessage) => postJSON<{ id: number }>('/api/v1/contact', m) })
}
