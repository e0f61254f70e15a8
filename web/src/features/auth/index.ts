// The auth feature's public entry point: the text for a failed wallet or API call, which settings shows too.
export { describeError, type ErrorText } from './errors'
